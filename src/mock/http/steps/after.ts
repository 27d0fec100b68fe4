import type { Answer, Exchange, Next } from '../exchange.js';

/**
 * Runs `next`, then `then` with its answer, and gives the answer back:
 * synchronously when the answer came at once, so a step that looks at the
 * answer (the journal, the log) adds no promise to a request that had none.
 */
export function after(x: Exchange, next: Next, then: (answer: Response) => void): Answer {
  const answer = next(x);
  if (answer instanceof Promise) {
    return answer.then((response) => {
      then(response);
      return response;
    });
  }
  then(answer);
  return answer;
}
