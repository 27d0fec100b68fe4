import { andFinally } from '../../core/store/maybe-promise.js';
import { bodyLimit } from 'hono/body-limit';
import { createByteBudget, type ByteBudget } from '../../core/byte-budget.js';
import { errorBody, type ErrorBody } from '../../core/errors.js';
import type { Answer, Exchange, Next, Step } from '../exchange.js';
import { sendError } from '../respond.js';
import type { BodyLimit } from '../../core/profile/profiled-body-limit.js';

/**
 * The request-body bytes the whole process reads at once (64 MiB). Each
 * body is limited to 1 MiB, but a thousand slow uploads at once could
 * still hold a gigabyte; past this budget a request with a body gets 503
 * `server_busy` and `Retry-After: 1` (RFC 9110 §15.6.4, §10.2.3) at once,
 * before any of its body is read. One per process, shared by every body
 * limit (createPet's, the admin API's activation).
 */
export const BODIES_IN_FLIGHT_BYTES = 64 * 1024 * 1024;
const bodiesInFlight = createByteBudget(BODIES_IN_FLIGHT_BYTES);

/** A fixed limit, answered 413 `payload_too_large`. */
const fixedBodyLimit = (maxBytes: number): BodyLimit => ({ maxBytes, error: errorBody('payload_too_large', `the request body is larger than ${maxBytes} bytes`) });

/**
 * Refuses request bodies over the limit (`limitOf`: a number of bytes, or
 * one read at each request) with 413 (RFC 9110 §15.5.14), or the limit's
 * own Error. A body with a Content-Length is judged by it alone, so the handler can
 * read it straight from node. hono/body-limit judges the others (chunked),
 * but it opens the body as a web stream, which made every createPet build
 * a full fetch Request: measured, that cost most of createPet's time.
 *
 * While the request is answered it holds its body's bytes of the
 * process-wide budget: its Content-Length, or `maxBytes` for a chunked body
 * (its size is known only once read).
 */
export function bodySize(limitOf: number | (() => BodyLimit), inFlight: ByteBudget = bodiesInFlight): Step {
  const fixed = typeof limitOf === 'number' ? fixedBodyLimit(limitOf) : undefined;
  const current = fixed ? () => fixed : (limitOf as () => BodyLimit);
  const busy = errorBody('server_busy', `the mock is already reading ${inFlight.capacity} bytes of request bodies at once, its limit; retry in a second`);
  // The rest of the body is never read, so the connection cannot carry
  // another request: it is closed.
  const closing = { connection: 'close' };
  const busyHeaders = { ...closing, 'retry-after': '1' };
  return function limitBodySize(x, next) {
    const { maxBytes, error } = current();
    const length = x.c.req.header('content-length');
    const encoded = x.c.req.header('transfer-encoding') !== undefined;
    const chunked = length === undefined || encoded;
    if (!chunked && Number(length) > maxBytes) return sendError(x, error, closing);
    // Without Content-Length or Transfer-Encoding there is no body (RFC 9112 §6.3): nothing to hold.
    const bytes = encoded ? maxBytes : length === undefined ? 0 : Number(length);
    const read = chunked ? () => streamed(x, next, maxBytes, error) : () => next(x);
    if (bytes === 0) return read();
    if (!inFlight.take(bytes)) return sendError(x, busy, busyHeaders);
    return holding(bytes, read);
  };

  /** Runs `answer`, and gives `bytes` back once it has answered or failed. */
  function holding(bytes: number, answer: () => Answer): Answer {
    let answered: Answer;
    try {
      answered = answer();
    } catch (thrown) {
      inFlight.give(bytes);
      throw thrown;
    }
    return andFinally(answered, () => inFlight.give(bytes));
  }

  /** A body without a length: hono/body-limit counts it as it arrives, and keeps what it read for the handler. */
  async function streamed(x: Exchange, next: Next, maxBytes: number, error: ErrorBody): Promise<Response> {
    let answer: Response | undefined;
    const limit = bodyLimit({ maxSize: maxBytes, onError: () => sendError(x, error, closing) });
    const refused = await limit(x.c, async () => {
      answer = await next(x);
    });
    return refused ?? (answer as Response);
  }
}
