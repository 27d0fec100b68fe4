import type { ErrorBody } from '../core/errors.js';
import type { Exchange } from './exchange.js';

/**
 * Every answer of the mock is built here, as one Response with a plain
 * header object. Hono's `c.header()` and `c.res.headers` build fetch
 * `Headers` objects, and @hono/node-server then has to convert them back;
 * a plain object goes straight to node's `writeHead`. That was the largest
 * cost per request when measured (see BENCHMARKS.md).
 */
export function respond(x: Exchange, status: number, body: string | null, headers?: Record<string, string>): Response {
  const added = x.headers;
  return new Response(body, {
    status,
    headers: body === null ? { ...added, ...headers } : { 'content-type': 'application/json', ...added, ...headers },
  });
}

export const sendError = (x: Exchange, error: ErrorBody, headers?: Record<string, string>): Response =>
  respond(x, error.status, JSON.stringify(error), headers);
