import type { ErrorBody } from '../core/errors.js';
import type { Exchange } from './exchange.js';
import { JSON_HEADERS, mergeHeaders, NO_HEADERS, type HeaderRecord } from './shared-headers.js';
import { traceSent } from './exchange-trace.js';

/**
 * Every answer of the mock is built here, as one Response with a plain
 * header object. Hono's `c.header()` and `c.res.headers` build fetch
 * `Headers` objects, and @hono/node-server then has to convert them back;
 * a plain object goes straight to node's `writeHead`. That was the largest
 * cost per request when measured (see BENCHMARKS.md).
 */
export function respond(x: Exchange, status: number, body: string | Uint8Array<ArrayBuffer> | null, headers?: HeaderRecord): Response {
  // The steps' headers and the answer's own, in that order; made once per route when all are frozen (shared-headers.ts).
  const steps = x.successHeaders !== undefined && status >= 200 && status < 300 ? mergeHeaders(x.headers ?? NO_HEADERS, x.successHeaders) : (x.headers ?? NO_HEADERS);
  const withSteps = mergeHeaders(body === null ? NO_HEADERS : JSON_HEADERS, steps);
  return sent(x, status, body, headers === undefined ? withSteps : mergeHeaders(withSteps, headers));
}

/**
 * The answer, its header record and body kept on the exchange as they are
 * (the journal shows them: steps/journal.ts); for an answer a fault builds
 * from another (malformed-json, trickle), what it sends. A body streamed
 * out over time is kept as none.
 */
export function sent(x: Exchange, status: number, body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null, headers: HeaderRecord): Response {
  // The record is only read (Response keeps it for @hono/node-server, which hands it to node's writeHead).
  const response = new Response(body, { status, headers: headers as Record<string, string> });
  traceSent(x, { response, headers, body: typeof body === 'string' ? body : null, status: undefined });
  return response;
}

export const sendError = (x: Exchange, error: ErrorBody, headers?: HeaderRecord): Response =>
  respond(x, error.status, JSON.stringify(error), headers);

/**
 * For a request the mock never answers (a reset, a hang the client gave
 * up on, a client gone mid-body): the status the journal and the log show
 * is nginx's 499, "client closed request". No byte of it is sent: the
 * `x-hono-already-sent` header tells @hono/node-server the response is
 * dealt with, and the socket is gone anyway.
 */
export const noAnswer = (): Response => new Response(null, { status: 499, headers: { 'x-hono-already-sent': 'true' } });
