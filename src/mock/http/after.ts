import { afterDone, andThen, type MaybePromise } from '../core/store/maybe-promise.js';
import type { Answer, Exchange, Next } from './exchange.js';

/**
 * Runs `next`, then `then` with its answer, and gives the answer back once
 * what `then` started (a session's journal entry on Redis) is done:
 * synchronously when both came at once, so a step that looks at the
 * answer (the journal, the log) adds no promise to a request that had none.
 */
export function after(x: Exchange, next: Next, then: (answer: Response) => MaybePromise<void>): Answer {
  return andThen(next(x), (answer) => afterDone(then(answer), answer));
}
