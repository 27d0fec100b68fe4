import type { RecordedExchange } from './exchange.js';

/**
 * An answer the request asked for in a field of its own, which is not the
 * operation's documented answer but stands for it or for none:
 * - `other-protocol`: 101 to a request with Upgrade (RFC 9110 §7.8); what
 *   follows is another protocol. Unasked, a 101 is judged as any
 *   undocumented status (§15.2.2: a server MUST NOT switch to a protocol not
 *   asked for).
 * - `accepted`: 202 to `Prefer: respond-async` (RFC 7240 §4.1): the request
 *   is taken to be carried out later, and its answer is not this one.
 * - `whole-range`: 206 to `Range: bytes=0-` whose one range is the whole
 *   representation (RFC 9110 §14.2, §15.3.7): the 200 it stands for, judged
 *   as that. A 206 of a part of it is judged as any undocumented status.
 */
export type AskedFor = 'other-protocol' | 'accepted' | 'whole-range';

export function askedFor({ request, response }: RecordedExchange): AskedFor | undefined {
  if (!response) return undefined;
  const field = (name: string): string | undefined => {
    const entry = Object.entries(request.headers).find(([n]) => n.toLowerCase() === name);
    return entry === undefined ? undefined : [entry[1]].flat().join(', ');
  };
  if (response.status === 101 && field('upgrade') !== undefined) return 'other-protocol';
  if (response.status === 202 && /(^|[\s,])respond-async\s*(,|;|$)/i.test(field('prefer') ?? '')) return 'accepted';
  if (response.status === 206 && /^\s*bytes\s*=\s*0-\s*$/i.test(field('range') ?? '')) {
    const whole = /^bytes 0-(\d+)\/(\d+)$/.exec((response.headers['content-range'] ?? '').trim());
    const length = Buffer.byteLength(response.body);
    if (whole && Number(whole[2]) === length && Number(whole[1]) === length - 1) return 'whole-range';
  }
  return undefined;
}
