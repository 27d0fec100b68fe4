import { bodyLimit } from 'hono/body-limit';
import { errorBody } from '../../core/errors.js';
import type { Exchange, Next, Step } from '../exchange.js';
import { sendError } from '../respond.js';

/**
 * Refuses request bodies over `maxBytes` with 413 (RFC 9110 §15.5.14).
 * A body with a Content-Length is judged by it alone, so the handler can
 * read it straight from node. hono/body-limit judges the others (chunked),
 * but it opens the body as a web stream, which made every createPet build
 * a full fetch Request: measured, that cost most of createPet's time.
 */
export function bodySize(maxBytes: number): Step {
  const error = errorBody('payload_too_large', `the request body is larger than ${maxBytes} bytes`);
  // The rest of the body is never read, so the connection cannot carry
  // another request: it is closed.
  const closing = { connection: 'close' };
  return function limitBodySize(x, next) {
    const length = x.c.req.header('content-length');
    if (length === undefined || x.c.req.header('transfer-encoding') !== undefined) return streamed(x, next);
    return Number(length) > maxBytes ? sendError(x, error, closing) : next(x);
  };

  /** A body without a length: hono/body-limit counts it as it arrives, and keeps what it read for the handler. */
  async function streamed(x: Exchange, next: Next): Promise<Response> {
    let answer: Response | undefined;
    const limit = bodyLimit({ maxSize: maxBytes, onError: () => sendError(x, error, closing) });
    const refused = await limit(x.c, async () => {
      answer = await next(x);
    });
    return refused ?? (answer as Response);
  }
}
