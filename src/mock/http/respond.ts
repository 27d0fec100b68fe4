import type { ErrorBody } from '../core/errors.js';
import type { Exchange } from './exchange.js';

/**
 * Every answer of the mock is built here, as one Response with a plain
 * header object. Hono's `c.header()` and `c.res.headers` build fetch
 * `Headers` objects, and @hono/node-server then has to convert them back;
 * a plain object goes straight to node's `writeHead`. That was the largest
 * cost per request when measured (see BENCHMARKS.md).
 */
export function respond(x: Exchange, status: number, body: string | Uint8Array<ArrayBuffer> | null, headers?: Record<string, string>): Response {
  const added = x.headers;
  return new Response(body, {
    status,
    headers: body === null ? { ...added, ...headers } : { 'content-type': 'application/json', ...added, ...headers },
  });
}

export const sendError = (x: Exchange, error: ErrorBody, headers?: Record<string, string>): Response =>
  respond(x, error.status, JSON.stringify(error), headers);

/**
 * For a request the mock never answers (a reset, a hang the client gave
 * up on, a client gone mid-body): the status the journal and the log show
 * is nginx's 499, "client closed request". No byte of it is sent: the
 * `x-hono-already-sent` header tells @hono/node-server the response is
 * dealt with, and the socket is gone anyway.
 */
export const noAnswer = (): Response => new Response(null, { status: 499, headers: { 'x-hono-already-sent': 'true' } });
