import { errorBody } from '../../core/errors.js';
import type { ExtraHeaders } from './error-answer.js';

/**
 * @hono/node-server's errorHandler: a request node parsed but that cannot be
 * turned into a fetch Request (a Host header that is not a host, a target
 * that is not a URL, such as `GET * HTTP/1.1` or `ftp://…`). By default it
 * answers a bare 400. Closed after, as every transport answer is (error-answer.ts).
 */
export function requestError(extra: ExtraHeaders): (error: unknown) => Response {
  return (error) => {
    const body = errorBody('bad_request', `the request cannot be read: ${(error as Error).message}`);
    return new Response(JSON.stringify(body), { status: body.status, headers: { 'content-type': 'application/json', ...extra, connection: 'close' } });
  };
}
