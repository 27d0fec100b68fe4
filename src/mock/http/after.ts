import { afterDone, pending, type MaybePromise } from '../core/store/maybe-promise.js';
import type { Answer, Exchange, Next } from './exchange.js';

/**
 * Runs `next`, then `then` with the exchange and its answer, and gives the
 * answer back once what `then` started (a session's journal entry on
 * Redis) is done: synchronously when both came at once, so a step that
 * looks at the answer (the journal, the log) adds no promise to a request
 * that had none, nor a closure: `then` gets the exchange, so a step passes
 * a function made once.
 */
export function after(x: Exchange, next: Next, then: (x: Exchange, answer: Response) => MaybePromise<void>): Answer {
  const answer = next(x);
  const later = pending(answer);
  if (later) return later.then((sent) => afterDone(then(x, sent), sent));
  return afterDone(then(x, answer as Response), answer as Response);
}
