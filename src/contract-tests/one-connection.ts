import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { hostLookup } from './host-lookup.js';
import { bodyReader, type Limits, type RawResponse } from './body-reader.js';
import type { Afterward } from '../verdict/exchange.js';

/**
 * Sends one request on a connection of its own and reads its answer byte
 * for byte (RFC 9112 §6.3: no content after a HEAD request, a 1xx, 204 or
 * 304, whatever the fields say; else chunked, Content-Length, or to the
 * connection's end), then, unless the answer said `Connection: close`, a
 * plain GET of the same target on the same connection. node's client reads
 * an answer to HEAD or a 304 as ending with its header block, so content
 * sent past it, or a connection that answers nothing more, shows only
 * here: in `afterward`.
 */
export function sendOnOneConnection(url: string, method: string, headers: Record<string, string | string[]>, limits: Limits): Promise<RawResponse> {
  const target = new URL(url);
  const socket = openSocket(target);
  const requestLine = (verb: string) => `${verb} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n`;
  const plain = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^if-|^content-|^transfer-encoding$/i.test(name)));
  socket.write(`${requestLine(method)}${fieldLines(headers)}\r\n`);
  return readAnswers(socket, method === 'HEAD', limits, () => socket.write(`${requestLine('GET')}${fieldLines(plain)}\r\n`));
}

/** A connection of its own to the URL's host and port (TLS for https). */
export function openSocket(target: URL): Socket {
  return target.protocol === 'https:'
    ? connectTls({ host: target.hostname, port: Number(target.port || 443), servername: target.hostname, lookup: hostLookup })
    : connectTcp({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || 80), lookup: hostLookup });
}

/** Field lines as written on the wire, one per value. */
export const fieldLines = (fields: Record<string, string | string[]>): string =>
  Object.entries(fields).flatMap(([name, value]) => [value].flat().map((one) => `${name}: ${one}\r\n`)).join('');

/** Settles a request on a socket of its own once: its time limit cleared, the socket closed. */
export function settleOnce(socket: Socket, resolve: (answer: RawResponse) => void, reject: (error: Error) => void) {
  let finished = false;
  let deadline: NodeJS.Timeout | undefined;
  return {
    finished: () => finished,
    limit: (ms: number, onTimeout: () => void) => void (deadline = setTimeout(onTimeout, ms)),
    done: (result: RawResponse | Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    },
  };
}

interface Head {
  status: number;
  headers: Record<string, string>;
  /** Where the content starts in the bytes read. */
  start: number;
  framing: 'none' | 'chunked' | 'close' | number;
}

function readAnswers(socket: Socket, head: boolean, limits: Limits, again: () => void): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    let ended: string | undefined;
    let answer: Head | undefined;
    let read: { end: number; content: Buffer } | undefined;
    let asked = false;
    const { done, finished, limit } = settleOnce(socket, resolve, reject);
    const settle = (afterward: Omit<Afterward, 'closes'> & { closes?: boolean }) => {
      const { status, headers } = answer as Head;
      const reader = bodyReader(status, headers, limits);
      reader.add((read as { content: Buffer }).content);
      done({ ...reader.decoded(), afterward: { closes: false, ...afterward } });
    };
    const step = () => {
      if (finished()) return;
      answer ??= readHead(bytes, head);
      if (!answer) return ended === undefined ? undefined : done(Object.assign(new Error('fetch failed'), { cause: { message: ended } }));
      read ??= contentOf(bytes, answer, ended !== undefined);
      if (read === undefined) return ended === undefined ? undefined : done(Object.assign(new Error('fetch failed'), { cause: { message: ended } }));
      const rest = bytes.subarray(read.end).toString('latin1');
      if (answer.framing === 'close' || /(^|,)\s*close\s*(,|$)/i.test(answer.headers.connection ?? '')) {
        if (ended !== undefined) settle({ content: rest, closes: true });
        return;
      }
      if (!asked) {
        asked = true;
        again();
      }
      const next = /HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(rest);
      if (next) settle({ content: rest.slice(0, next.index), next: Number(next[1]) });
      else if (ended !== undefined) settle({ content: rest, broken: ended });
    };
    limit(limits.timeoutMs, () => {
      if (asked) return settle({ content: bytes.subarray(read?.end).toString('latin1'), broken: `no answer to a second request within ${limits.timeoutMs} ms` });
      done(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
    });
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      if (bytes.length > limits.maxBodyBytes + 65_536) return done(Object.assign(new Error('fetch failed'), { cause: { message: 'the answer passed the body cap' } }));
      step();
    });
    socket.on('end', () => {
      ended ??= 'the server closed the connection';
      step();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended ??= error.code ? `${error.code}: ${error.message}` : error.message;
      step();
    });
  });
}

/** The first final answer's status line and fields, once its header block is all there (1xx answers skipped). */
export function readHead(bytes: Buffer, head: boolean, from = 0): Head | undefined {
  const stop = bytes.indexOf('\r\n\r\n', from);
  if (stop < 0) return undefined;
  const [line = '', ...lines] = bytes.subarray(from, stop).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? 0);
  if (status >= 100 && status < 200 && status !== 101) return readHead(bytes, head, stop + 4);
  const headers: Record<string, string> = {};
  for (const field of lines) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const framing: Head['framing'] =
    head || status === 204 || status === 304 ? 'none' : /chunked/i.test(headers['transfer-encoding'] ?? '') ? 'chunked' : headers['content-length'] !== undefined ? Number(headers['content-length']) : 'close';
  return { status, headers, start: stop + 4, framing };
}

/** The answer's content (de-chunked) and where it ends in the bytes read, or undefined while it has not all come. */
export function contentOf(bytes: Buffer, { start, framing }: Head, ended: boolean): { end: number; content: Buffer } | undefined {
  const upTo = (end: number) => ({ end, content: bytes.subarray(start, end) });
  if (framing === 'none') return upTo(start);
  if (framing === 'close') return ended ? upTo(bytes.length) : undefined;
  if (typeof framing === 'number') return bytes.length >= start + framing ? upTo(start + framing) : undefined;
  const chunks: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    // Framing that cannot be read ends the content here: what follows shows as bytes before the next answer.
    if (Number.isNaN(size)) return { end: at, content: Buffer.concat(chunks) };
    if (size === 0) {
      const trailerEnd = bytes.indexOf('\r\n\r\n', lineEnd);
      if (bytes.subarray(lineEnd + 2, lineEnd + 4).toString('latin1') === '\r\n') return { end: lineEnd + 4, content: Buffer.concat(chunks) };
      return trailerEnd < 0 ? undefined : { end: trailerEnd + 4, content: Buffer.concat(chunks) };
    }
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    chunks.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
