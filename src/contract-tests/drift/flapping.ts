import type { Send } from '../http-client.js';
import { answerOf } from '../silent-log.js';
import type { ApiRequest } from '../types.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { shapeOf } from './answer-facets.js';

/**
 * A target that answers the same request differently on repeat has made no
 * choice there: its answers are reported as inconsistent, not as drift.
 * Two cheap signs, both from GETs only (GET is safe and idempotent, RFC 9110
 * §9.2.1-2: asking again changes nothing): the run itself sent the very
 * same GET twice and got two answers, or a GET sent again gets another
 * answer. A POST is neither counted nor sent again: a second create of the
 * same body may rightly be refused (a name now taken), and sending one
 * would store another animal. The one change a GET may see between two
 * asks is an animal coming to exist (404, then 200): this API has no
 * update and no delete.
 */
/** What an answer is, for telling two answers to one request apart: the status, the Error code, and a single animal's shape. */
export function fingerprint(exchange: Pick<RecordedExchange, 'response' | 'networkError' | 'request'>): string {
  const json = exchange.response?.json;
  // A page's shape follows which animals the catalogue holds at that moment, which other rules change.
  const page = Array.isArray(json);
  return `${answerOf(exchange as RecordedExchange)}${json === undefined || page ? '' : ` ${shapeOf(json)}`}`;
}

/** Every request a target was sent more than once with the answers it got: the request as recorded (its own ids, the key redacted) → answers. */
export function repeatedRequests(exchanges: readonly RecordedExchange[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  for (const exchange of exchanges) {
    if (exchange.request.method !== 'GET') continue;
    const key = requestKey(exchange);
    seen.set(key, [...(seen.get(key) ?? []), fingerprint(exchange)]);
  }
  return seen;
}

export const requestKey = (exchange: RecordedExchange): string => JSON.stringify(exchange.request);

/** The answers a case got on one target when they are not all alike: from the run's own repeats, else by sending a GET twice more. */
export async function unstableAnswers(send: Send | undefined, request: ApiRequest, exchange: RecordedExchange, repeats: Map<string, string[]>): Promise<string[] | undefined> {
  if (request.method !== 'GET') return undefined;
  // The run's rules go concurrently and each keeps its own exchanges, so its repeats are not in time order:
  // a 404 may have come before a 200 recorded ahead of it. Only the asks sent here, after, are in order.
  const answers = [...(repeats.get(requestKey(exchange)) ?? [fingerprint(exchange)])].sort((x, y) => Number(!x.startsWith('404')) - Number(!y.startsWith('404')));
  if (unstable(answers)) return answers;
  if (!send) return undefined;
  for (let i = 0; i < 2; i++) answers.push(fingerprint(await send(request)));
  return unstable(answers) ? answers : undefined;
}

/** Whether answers in the order given differ, once an animal's coming to exist (404s, then 200) is set aside. */
function unstable(answers: readonly string[]): boolean {
  const found = answers.findIndex((answer) => answer.startsWith('200'));
  const created = found > 0 && answers.slice(0, found).every((answer) => answer.startsWith('404'));
  return new Set(created ? answers.slice(found) : answers).size > 1;
}
