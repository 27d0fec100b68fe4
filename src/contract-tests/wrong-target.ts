import type { ResponseValidator } from '../document/response-validator.js';
import type { AnswerTally } from './answer-tally.js';
import type { WrongTarget } from '../verdict/report.js';

/** A run of fewer requests says too little about the target to blame its address (a couple of `--only` rules). */
export const WRONG_TARGET_MIN_REQUESTS = 10;

/**
 * The share of the run's requests that must get the one status. Not all of
 * them: a server that is not the API may still answer a few requests
 * otherwise (prism's own mock, asked below the wrong base path, answers 404
 * to every route but 400 to a body it cannot parse, before it routes).
 * Only when no request at all got a 2xx: the run's first request, a
 * listPets with the key, gets 200 from the API at the right address with
 * the right key, so a run of rules that mostly get refusals (`--only
 * auth-near-misses-list-pets`, all 401 but that one) is never taken for a
 * wrong target.
 */
export const WRONG_TARGET_SHARE = 0.95;

/**
 * Tells, once the run is over, whether the harness was pointed at the wrong
 * base path (every request 404), at a proxy with no upstream (every one
 * 502), or with the wrong key (every one 401), so that it says so in one
 * line rather than failing every rule and claiming some coverage. It is a
 * wrong target when:
 * - the run made at least WRONG_TARGET_MIN_REQUESTS requests;
 * - every one of them got the same status, or at least WRONG_TARGET_SHARE
 *   of them and none got a 2xx; and that status is not a 2xx (a server that
 *   accepts everything is judged rule by rule: it is wrong, not misaddressed);
 * - that status is 401 or 403 (the key), or the contract does not document it
 *   for at least one operation asked (listPets has no 404: a correct API at
 *   that address would have answered it otherwise).
 */
export function wrongTargetVerdict(tally: AnswerTally, validator: ResponseValidator, baseUrl: string): WrongTarget | undefined {
  // The requests to a path of the interface: a form it is silent on (`//v1/pets`) may be refused before any key check, whatever the address.
  const requests = [...tally.byStatus().values()].reduce((n, { count }) => n + count, 0);
  if (requests < WRONG_TARGET_MIN_REQUESTS) return undefined;
  const [status, most] = [...tally.byStatus()].sort(([, a], [, b]) => b.count - a.count)[0] ?? [];
  if (typeof status !== 'number' || !most || most.count < requests * WRONG_TARGET_SHARE || (status >= 200 && status < 300)) return undefined;
  const succeeded = [...tally.byStatus().keys()].some((other) => typeof other === 'number' && other >= 200 && other < 300);
  if (most.count < requests && succeeded) return undefined;
  const how = most.count === requests ? `every request answered ${status}` : `nearly every request answered ${status} (${most.count} of ${requests}; ${others(tally, status)})`;
  const where = `(${baseUrl}, ${requests} requests)`;
  const verdict = (what: string) => ({ status, requests, matching: most.count, message: `${how}: is the ${what} right? ${where}` });
  if (status === 401 || status === 403) return verdict('key');
  const code = String(status);
  const undocumented = [...most.asked.values()].some(({ method, path }) => validator.operationFor(method, path)?.responses.every((response) => response.code !== code));
  return undocumented ? verdict('base URL') : undefined;
}

/** What the rest got: `1 answered 400`, `2 answered 400, 1 got no answer`. */
function others(tally: AnswerTally, status: number): string {
  return [...tally.byStatus()]
    .filter(([other]) => other !== status)
    .map(([other, { count }]) => (other === 'none' ? `${count} got no answer` : `${count} answered ${other}`))
    .join(', ');
}
