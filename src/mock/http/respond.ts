import type { Context } from 'hono';
import type { ErrorBody } from '../core/errors.js';
import type { MockEnv } from './mock-env.js';

/**
 * Adds headers to whatever response the request gets (CORS, deprecation).
 * Middleware call it before the handler runs; `respond` merges them in.
 */
export function addResponseHeaders(c: Context<MockEnv>, headers: Record<string, string>): void {
  const current = c.get('responseHeaders');
  c.set('responseHeaders', current ? { ...current, ...headers } : headers);
}

/**
 * Every answer of the mock is built here, as one Response with a plain
 * header object. Hono's `c.header()` and `c.res.headers` build fetch
 * `Headers` objects, and @hono/node-server then has to convert them back;
 * a plain object goes straight to node's `writeHead`. That was the largest
 * cost per request when measured (see BENCHMARKS.md).
 */
export function respond(c: Context<MockEnv>, status: number, body: string | null, headers?: Record<string, string>): Response {
  const added = c.get('responseHeaders');
  return new Response(body, {
    status,
    headers: body === null ? { ...added, ...headers } : { 'content-type': 'application/json', ...added, ...headers },
  });
}

export const sendError = (c: Context<MockEnv>, error: ErrorBody, headers?: Record<string, string>): Response =>
  respond(c, error.status, JSON.stringify(error), headers);
