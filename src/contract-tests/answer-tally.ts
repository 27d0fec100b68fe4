import type { Send } from './http-client.js';
import { NOT_SENT, type RecordedExchange } from '../verdict/exchange.js';

/**
 * What one answer was, in the words a cause of failures is told in: its
 * status, its Error `code`, and whether it said when to retry
 * (`503 service_unavailable with Retry-After`), or that none came. Two
 * answers with the same signature are the same behaviour of the target,
 * whichever rule asked.
 */
export function answerSignature({ response, networkError }: Pick<RecordedExchange, 'response' | 'networkError'>): string {
  if (!response) return `no answer (${(networkError ?? 'unknown').replace(/\d+/g, 'N')})`;
  if (response.unread) return `${response.status} with a body not read (${response.unread.reason})`;
  const code = (response.json as { code?: unknown } | undefined)?.code;
  // A code is the server's own text: cut, so that one odd answer cannot make a cause's name a page long.
  const shownCode = typeof code === 'string' && code !== '' ? ` ${code.slice(0, 64)}` : '';
  // RFC 9110 §10.2.3: Retry-After tells a client when to ask again; its value (a delay, a date) differs answer to answer.
  const retry = response.headers['retry-after'] === undefined ? '' : ' with Retry-After';
  return `${response.status}${shownCode}${retry}`;
}

/** The distinct `METHOD path` kept per status: enough to find an operation that does not document it, bounded whatever the run's size. */
const ASKED_PER_STATUS = 32;

export interface StatusCount {
  count: number;
  /** Up to ASKED_PER_STATUS distinct requests (method and path, no query) that got it. */
  asked: Map<string, { method: string; path: string }>;
}

export interface AnswerTally {
  /** `send`, counting every request it makes and what it gets. */
  send: Send;
  /** The requests sent (a credential variant a key does not allow is not sent, and not counted). */
  requests(): number;
  /** How many requests got each answer, by its signature. */
  bySignature(): ReadonlyMap<string, number>;
  /** How many requests got each status; `none` for no answer. */
  byStatus(): ReadonlyMap<number | 'none', StatusCount>;
}

/**
 * Counts every request a run sends and what it got: the wrong-target
 * verdict reads the statuses, the causes of failures how often each answer
 * came (`on 173 of 519 requests`). The maps hold one entry per distinct
 * answer, so they never outgrow the run's own requests.
 */
export function answerTally(send: Send): AnswerTally {
  let requests = 0;
  const signatures = new Map<string, number>();
  const statuses = new Map<number | 'none', StatusCount>();
  return {
    async send(request) {
      const exchange = await send(request);
      if (exchange.networkError === NOT_SENT) return exchange;
      requests++;
      const signature = answerSignature(exchange);
      signatures.set(signature, (signatures.get(signature) ?? 0) + 1);
      const status = exchange.response?.status ?? 'none';
      const entry = statuses.get(status) ?? { count: 0, asked: new Map() };
      entry.count++;
      const path = request.path.split('?')[0] ?? '';
      if (entry.asked.size < ASKED_PER_STATUS) entry.asked.set(`${request.method} ${path}`, { method: request.method, path });
      statuses.set(status, entry);
      return exchange;
    },
    requests: () => requests,
    bySignature: () => signatures,
    byStatus: () => statuses,
  };
}
