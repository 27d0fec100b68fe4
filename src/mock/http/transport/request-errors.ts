import { RequestError } from '@hono/node-server';
import { errorBody } from '../../core/errors.js';
import { errorResponse, type ExtraHeaders } from './error-answer.js';

/**
 * @hono/node-server's errorHandler, which gets two kinds of error:
 * - a RequestError: a request node parsed but that cannot be turned into a
 *   fetch Request (a Host header that is not a host, a target that is not a
 *   URL, such as `ftp://…`). By default it answers a bare 400.
 * - anything else: the app's answer failed, which its steps should have
 *   caught (steps/internal-errors.ts); a bug of the mock, so 500 and a log
 *   line, not a 400 that blames the client.
 * Closed after, as every transport answer is (error-answer.ts).
 */
export function requestError(extra: ExtraHeaders, onInternalError: (error: unknown) => void): (error: unknown) => Response {
  return (error) => {
    if (error instanceof RequestError) return errorResponse(errorBody('bad_request', `the request cannot be read: ${error.message}`), extra);
    onInternalError(error);
    return errorResponse(errorBody('internal_error', 'The mock failed to answer (a bug: see its log).'), extra);
  };
}
