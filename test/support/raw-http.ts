import { connect } from 'node:net';
import { expect } from 'vitest';

export interface RawAnswer {
  /** Every byte the server sent. */
  bytes: Buffer;
  /** The server closed the connection within the wait. */
  closed: boolean;
}

export interface RawOptions {
  /** Half-close after writing, as a client with nothing more to send (default true). */
  halfClose?: boolean;
  /** Give up waiting for the server to close after this long (default 3 s). */
  waitMs?: number;
}

/** Sends raw bytes over TCP (fetch cannot send malformed HTTP) and collects the answer until the server closes. */
export function rawExchange(port: number, request: string | Buffer, options: RawOptions = {}): Promise<RawAnswer> {
  const { halfClose = true, waitMs = 3000 } = options;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => done(true));
    // A reset after the answer (the server closed with unread input) still counts as closed; the bytes are kept.
    socket.on('error', () => undefined);
  });
}

export interface ParsedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Reads a byte stream as a sequence of HTTP/1.1 responses (RFC 9112): a
 * status line, headers, then a body framed by chunked coding, Content-Length,
 * or the close. Throws, naming the fault, if any part is not well formed. For
 * answers to requests other than HEAD (whose answers have no body).
 */
export function parseResponses(bytes: Buffer): ParsedResponse[] {
  const responses: ParsedResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end === -1) throw new Error(`a response head without its end at byte ${at}: ${JSON.stringify(bytes.subarray(at, at + 200).toString('latin1'))}`);
    const [statusLine, ...lines] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine as string);
    if (!match) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const field = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/.exec(line);
      if (!field) throw new Error(`not a header line: ${JSON.stringify(line)}`);
      const name = (field[1] as string).toLowerCase();
      headers[name] = headers[name] === undefined ? (field[2] as string) : `${headers[name]}, ${field[2]}`;
    }
    const status = Number(match[1]);
    const [body, next] = readBody(bytes, end + 4, status, headers);
    responses.push({ status, headers, body });
    at = next;
  }
  return responses;
}

function readBody(bytes: Buffer, start: number, status: number, headers: Record<string, string>): [Buffer, number] {
  if (status < 200 || status === 204 || status === 304) return [Buffer.alloc(0), start];
  if (headers['transfer-encoding'] !== undefined) {
    if (headers['transfer-encoding'].toLowerCase() !== 'chunked') throw new Error(`a transfer coding the test cannot read: ${headers['transfer-encoding']}`);
    return readChunked(bytes, start);
  }
  if (headers['content-length'] !== undefined) {
    if (!/^\d+$/.test(headers['content-length'])) throw new Error(`a bad Content-Length: ${headers['content-length']}`);
    const length = Number(headers['content-length']);
    if (start + length > bytes.length) throw new Error(`a body cut short: ${bytes.length - start} of ${length} bytes`);
    return [bytes.subarray(start, start + length), start + length];
  }
  return [bytes.subarray(start), bytes.length];
}

function readChunked(bytes: Buffer, start: number): [Buffer, number] {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = lineEnd === -1 ? NaN : parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size) || lineEnd + 2 + size + 2 > bytes.length) throw new Error(`a chunked body cut short or malformed at byte ${at}`);
    if (size === 0) {
      if (bytes.subarray(lineEnd + 2, lineEnd + 4).toString('latin1') !== '\r\n') throw new Error('trailers or no final CRLF after the last chunk');
      return [Buffer.concat(parts), lineEnd + 4];
    }
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The answer is the interface's Error body, as JSON, with `status` equal to the status line's. */
export function expectErrorBody(response: ParsedResponse, code?: string): void {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  expect(body).toEqual({ code: code ?? expect.any(String), message: expect.any(String), status: response.status });
}
