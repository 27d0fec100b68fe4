import type { Maybe } from '../../core/store/maybe.js';
import type { Answer, Exchange, Next } from '../exchange.js';

/**
 * Runs `next`, then `then` with its answer, and gives the answer back:
 * synchronously when the answer came at once, so a step that looks at the
 * answer (the journal, the log) adds no promise to a request that had none.
 */
export function after(x: Exchange, next: Next, then: (answer: Response) => Maybe<void>): Answer {
  const answer = next(x);
  if (answer instanceof Promise) return answer.then((response) => settle(then(response), response));
  return settle(then(answer), answer);
}

/** The answer, once what `then` started (a session's journal entry on Redis) is done. */
const settle = (done: Maybe<void>, answer: Response): Answer => (done instanceof Promise ? done.then(() => answer) : answer);
