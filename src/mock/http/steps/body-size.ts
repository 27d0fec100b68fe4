import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from '../../core/errors.js';
import type { MockEnv } from '../mock-env.js';
import { sendError } from '../respond.js';

/**
 * Refuses request bodies over `maxBytes` with 413 (RFC 9110 §15.5.14).
 * A body with a Content-Length is judged by it alone, so the handler can
 * read it straight from node. hono/body-limit judges the others (chunked),
 * but it opens the body as a web stream, which made every createPet build
 * a full fetch Request: measured, that cost most of createPet's time.
 */
export function bodySize(maxBytes: number): MiddlewareHandler<MockEnv> {
  // The rest of the body is never read, so the connection cannot carry
  // another request: it is closed.
  const tooLarge: Parameters<typeof bodyLimit>[0]['onError'] = (c) =>
    sendError(c, errorBody('payload_too_large', `the request body is larger than ${maxBytes} bytes`), { connection: 'close' });
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });

  return async function limitBodySize(c, next) {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
    return Number(length) > maxBytes ? tooLarge(c) : next();
  };
}
