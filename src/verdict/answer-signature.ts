import type { RecordedExchange } from './exchange.js';

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
