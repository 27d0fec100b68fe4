import { andCatch } from '../../core/store/maybe-promise.js';
import type { Log } from '../../core/log/log.js';
import { errorBody } from '../../core/errors.js';
import { SessionEnded } from '../../core/store/session-ended.js';
import { StoreUnavailable } from '../../core/store/store-unavailable.js';
import { printable } from '../../core/log/printable.js';
import type { Exchange, Step } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { noAnswer, sendError } from '../respond.js';

const INTERNAL = errorBody('internal_error', 'The mock failed to answer this request; see its log.');

/**
 * An answer for a request whose handling threw: logged, and the client gets
 * the Error body (never a bare 500). A client that went away mid-request
 * (its body cut off: the read fails) is no fault of the mock's: one info
 * line, and no answer, since nobody is there to read it.
 */
export function internalError(logger: Log, x: Exchange, error: unknown): Response {
  if (error instanceof StoreUnavailable) {
    logStoreOutage(logger, error);
    return sendError(x, errorBody('store_unavailable', `The mock's store could not serve this request (${error.message}). Retry shortly; GET /__mock/health says whether it is back.`), { 'retry-after': '1' });
  }
  if (error instanceof SessionEnded) {
    return sendError(x, errorBody('unknown_session', `Session ${error.id} was ended (DELETE /__mock/sessions, an eviction, its idle time, or its keys removed from Redis: FLUSHALL) while this request was served: nothing it would have changed was kept. Send it again to start the session afresh.`));
  }
  if (clientGone(x)) {
    logger.info(`${x.c.req.method} ${printable(x.c.req.path)}: the client closed the connection before the request was read`);
    return noAnswer();
  }
  logger.error({ err: error }, `internal error on ${x.c.req.method} ${printable(x.c.req.path)}`);
  return sendError(x, INTERNAL);
}

// When each log last said the store was away: one line a second while it is, not one per request.
const lastSaid = new WeakMap<Log, number>();

/** Logs that the store is away (a failed journal append, a request's 503), at most once a second. */
export function logStoreOutage(logger: Log, error: unknown): void {
  const now = performance.now();
  if (now - (lastSaid.get(logger) ?? -Infinity) < 1000) return;
  lastSaid.set(logger, now);
  logger.warn(`the store cannot be reached: ${(error as Error).message}; requests answer 503 store_unavailable until it is back`);
}

/**
 * Catches what the steps after it throw, synchronously or not. It comes
 * after the journal and the log, so a failed request is recorded and
 * logged with the 500 the client got.
 */
export function internalErrors(logger: Log): Step {
  return function catchInternalErrors(x, next) {
    try {
      return andCatch(next(x), (error) => internalError(logger, x, error));
    } catch (error) {
      return internalError(logger, x, error);
    }
  };
}

/** Whether the node request was cut off by its client: aborted, or its socket closed before it was read whole. */
function clientGone(x: Exchange): boolean {
  const incoming = nodeBindings(x.c)?.incoming;
  return incoming !== undefined && (incoming.aborted || (incoming.destroyed && !incoming.complete));
}
