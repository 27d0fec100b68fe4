import type { Logger } from 'pino';
import { errorBody } from '../../core/errors.js';
import { printable } from '../../logger.js';
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
export function internalError(logger: Logger, x: Exchange, error: unknown): Response {
  if (clientGone(x)) {
    logger.info(`${x.c.req.method} ${printable(x.c.req.path)}: the client closed the connection before the request was read`);
    return noAnswer();
  }
  logger.error({ err: error }, `internal error on ${x.c.req.method} ${printable(x.c.req.path)}`);
  return sendError(x, INTERNAL);
}

/**
 * Catches what the steps after it throw, synchronously or not. It comes
 * after the journal and the log, so a failed request is recorded and
 * logged with the 500 the client got.
 */
export function internalErrors(logger: Logger): Step {
  return function catchInternalErrors(x, next) {
    try {
      const answer = next(x);
      return answer instanceof Promise ? answer.catch((error: unknown) => internalError(logger, x, error)) : answer;
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
