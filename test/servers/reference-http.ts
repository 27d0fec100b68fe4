import { stringify } from 'lossless-json';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { onlyHeader } from './reference-auth.js';

/**
 * The reference server's HTTP plumbing (reference-server.ts): reading a
 * body within bounds, writing a JSON answer, splitting a request target,
 * and a JSON answer to malformed HTTP.
 */

export const JSON_TYPE = 'application/json; charset=utf-8';
/** The largest body kept; a larger one is refused with 413 by createPet. */
export const BODY_LIMIT = 64 * 1024;
/** Past this many bytes a body is no longer read, and the connection closes after the answer. */
export const DRAIN_LIMIT = 8 * 1024 * 1024;

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Body {
  bytes: Buffer;
  size: number;
  /** False when reading stopped past DRAIN_LIMIT. */
  complete: boolean;
}

export interface Handlers {
  /** An answer decided from the request head alone, sent before the body is read; undefined to read the body first. */
  beforeBody(req: IncomingMessage): Answer | undefined;
  answer(req: IncomingMessage, body: Body): Answer;
}

export function error(status: number, code: string, message: string, headers?: Record<string, string>): Answer {
  return { status, body: { code, message, status }, ...(headers ? { headers } : {}) };
}

const internal = (): Answer => error(500, 'internal', 'The reference server failed to answer.');

export async function serve(req: IncomingMessage, res: ServerResponse, { beforeBody, answer }: Handlers): Promise<void> {
  try {
    const early = beforeBody(req);
    if (early !== undefined) return answerEarly(req, res, early);
    const body = await readBody(req);
    if (body === undefined) return; // the client went away
    let reply: Answer;
    try {
      reply = answer(req, body);
    } catch {
      reply = internal();
    }
    send(res, reply, !body.complete);
  } catch {
    if (!res.headersSent) send(res, internal(), true);
    else res.destroy();
  }
}

/**
 * Answers before the body is read, then reads and discards it so the
 * connection stays usable: closing with body bytes still arriving would
 * reset it, and a reset may destroy the answer before the client reads it
 * (RFC 9112 §9.6). Past DRAIN_LIMIT the connection is closed instead.
 */
function answerEarly(req: IncomingMessage, res: ServerResponse, early: Answer): void {
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DRAIN_LIMIT) req.socket.destroy();
  });
  req.on('error', () => undefined);
  send(res, early, false);
}

export function send(res: ServerResponse, { status, body, headers }: Answer, close: boolean): void {
  const text = stringify(body) ?? '';
  res.writeHead(status, {
    ...headers,
    'content-type': JSON_TYPE,
    'content-length': String(Buffer.byteLength(text)),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** The whole body, keeping at most BODY_LIMIT + 1 bytes; undefined when the request broke off. */
function readBody(req: IncomingMessage): Promise<Body | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body | undefined) => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size <= BODY_LIMIT) chunks.push(chunk);
      size += chunk.length;
      if (size > DRAIN_LIMIT) {
        req.pause();
        finish({ bytes: Buffer.concat(chunks), size, complete: false });
      }
    });
    req.on('end', () => finish({ bytes: Buffer.concat(chunks), size, complete: true }));
    req.on('error', () => finish(undefined));
    req.on('close', () => finish(undefined));
  });
}

/** The path and query of a request target: origin-form as is, absolute-form through URL; others (`*`, authority-form) none. */
export function splitTarget(url: string): { path: string; query: string } | undefined {
  let target = url;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target)) return undefined;
    try {
      const parsed = new URL(target);
      target = parsed.pathname + parsed.search;
    } catch {
      return undefined;
    }
  }
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  const mark = target.indexOf('?');
  return mark === -1 ? { path: target, query: '' } : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

/**
 * A path as RFC 3986 says it names its resource (§6.2.2): a percent-encoded
 * unreserved character is that character (§2.3: `%70` is `p`), the hex
 * digits of the other encodings in upper case (§6.2.2.1), and dot segments
 * removed (§5.2.4: `/v1/x/../pets` is `/v1/pets`). Other encodings stay, so
 * a path parameter is still decoded once.
 */
export function normalizedPath(path: string): string {
  const decoded = path.replace(/%([0-9a-fA-F]{2})/g, (encoded, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(c) ? c : encoded.toUpperCase();
  });
  const segments: string[] = [];
  const input = decoded.split('/').slice(1);
  for (const segment of input) {
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  const last = input[input.length - 1];
  return `/${segments.join('/')}${last === '.' || last === '..' ? '/' : ''}`;
}

/** Exactly one Content-Type, `application/json` (any case), whose charset, if any, is utf-8. */
export function isJsonContentType(rawHeaders: readonly string[]): boolean {
  const value = onlyHeader(rawHeaders, 'content-type');
  if (value === undefined) return false;
  const [type = '', ...parameters] = value.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    if (parameter.trim() === '') continue;
    const eq = parameter.indexOf('=');
    if (eq <= 0) return false;
    const name = parameter.slice(0, eq).trim().toLowerCase();
    let content = parameter.slice(eq + 1).trim();
    if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) content = content.slice(1, -1);
    if (name === 'charset' && content.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/** node's own answer to malformed HTTP has a text body; this one is JSON too. */
export function refuseMalformed(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.']
      : [400, 'Bad Request', 'bad_request', 'The request is not well-formed HTTP.'];
  const text = JSON.stringify({ code, message, status });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}
