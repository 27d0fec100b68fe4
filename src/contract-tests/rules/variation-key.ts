import type { ApiRequest, Probe } from '../types.js';
import type { Finding } from '../../verdict/exchange.js';
import { CREDENTIALS } from './auth-rules.js';
import { finding } from './generated.js';
import { cite, STATEMENTS } from './statements.js';
import { fieldOf } from './variation-judge.js';

type Credentials = (typeof CREDENTIALS)[number];

/**
 * The credentials every variation is sent with besides the key: none and a
 * wrong one, the two the Authentication section names ("When the key is
 * missing or invalid, the service answers 401"). A key check that reads
 * the request in one spelling and the router in another lets the other
 * spelling in: only a request in that spelling without the key shows it.
 */
export const BAD_CREDENTIALS: readonly Credentials[] = CREDENTIALS.filter((c) => c.slug === 'missing-key' || c.slug === 'wrong-key');

/** Sends a case's request with these credentials (and, for createPet, a body of its own). */
export type SendWith = (auth: ApiRequest['auth']) => Promise<Probe>;

/**
 * What a varied request may get without the key besides 401, when its
 * keyed answer was a refusal a server may choose for its form (`refused`:
 * a form the interface is silent on, another path such as an empty last
 * segment, RFC 3986 §6.2.3; or an excused refusal, variation-judge.ts
 * `excused`, such as a strict firewall's 400 to dot segments, 411 to a
 * chunked body, 415 to a JSON body under text/plain, 505 to HTTP/1.0): that
 * same redirect, 4xx but 401, or 505. A front end that refuses the form,
 * or routes, before any key check answers alike with and without the key,
 * and lets nothing in. Never a 2xx; and a refusal of the value itself (an
 * invalid body) is no such refusal: without the key, 401.
 */
const alsoAllowed = (keyedStatus: number | undefined, refused: boolean): number | undefined =>
  refused && keyedStatus !== undefined && ((keyedStatus >= 300 && keyedStatus < 500 && keyedStatus !== 401) || keyedStatus === 505) ? keyedStatus : undefined;

/**
 * The varied request sent with each bad credential: each must get 401 (or
 * as alsoAllowed says; for a form the interface is silent on, `silent`,
 * any redirect or 4xx; for a request asking for an upgrade, 101).
 * When one does not, the same credentials on the request as the harness
 * always writes it go too, so the report shows the plain request beside the
 * spelling that got in (both as curl lines).
 */
export async function withoutTheKey(sendVaried: SendWith, sendPlain: SendWith, keyedStatus: number | undefined, refused = false, silent = false): Promise<{ probes: Probe[]; findings: Finding[] }> {
  const probes: Probe[] = [];
  const findings: Finding[] = [];
  const allowed = alsoAllowed(keyedStatus, refused);
  for (const credentials of BAD_CREDENTIALS) {
    const varied = await sendVaried(credentials.auth);
    const status = varied.exchange.response?.status;
    // A form the interface is silent on names another path: without the key any redirect or refusal lets nothing in (a router may answer it before the key check, the key check before the router), never a 2xx.
    const silentRefusal = silent && status !== undefined && status >= 300 && status < 500;
    // A request that asked for an upgrade may get 101 (RFC 9110 §7.8): no content of the API comes with it.
    const switched = status === 101 && fieldOf(varied.exchange.request, 'upgrade') !== undefined;
    if (status === undefined || status === 401 || status === allowed || silentRefusal || switched) {
      probes.push(varied);
      continue;
    }
    const plain = await sendPlain(credentials.auth);
    probes.push(plain, varied);
    const plainStatus = plain.exchange.response?.status;
    const contrast = plainStatus === undefined ? '' : `, where the request as the harness always writes it got ${plainStatus}`;
    findings.push(finding(varied.exchange, `answered ${status} to this spelling of the request with ${credentials.what}${contrast}`, `401 (${cite(STATEMENTS.authRequired)}), however the request is written`, '$.status'));
  }
  return { probes, findings };
}
