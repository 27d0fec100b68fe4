import { decodeBody } from '../../../verdict/decode-body.js';
import { pathBelowBase } from '../../../verdict/exchange-checks.js';
import { keyRedactor } from '../../../verdict/redact-key.js';
import type { ResponseValidator } from '../../../document/response-validator.js';
import { readJson } from '../../../shared/exact-json/parse-exact-json.js';
import { SECRET_NAME } from '../../core/journal/journal-path.js';
import { recordedResponseHeaders } from '../../core/proxy/recorded-headers.js';
import { recordedMatch, variesByUnrecorded } from '../../core/proxy/recorded-match.js';
import type { Recording } from '../../core/proxy/recording.js';
import type { Exchange } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { REQUEST_BODY_KEPT, type TargetAnswer } from './forward.js';
import { headerRecord } from './hop-by-hop.js';
import type { ProxyOutcome } from './proxy-outcome.js';

export interface RecordAnswerOptions {
  recording: Recording;
  validator: ResponseValidator;
  basePath: string;
  /** `--upstream-key`, which no recording may hold. */
  upstreamKey: string | undefined;
}

/**
 * One checked exchange into the recording. Left out, and counted: an answer
 * that broke the contract (a recording never launders a violation into a
 * scenario the mock would then serve as if it were right), one too large
 * to check, one about credentials (below), and one whose recorded parts
 * hold any of the request's credentials (its Authorization, cookies,
 * credential-like fields and query parameters, the upstream key) in any
 * form the harness's reports redact.
 *
 * A 401 or 403 is about the request's credentials, which no stub matches
 * (they are never written): as a stub it would answer every request of its
 * kind, and the mock checks the key before any stub, so only a valid key
 * would ever get it. The replaying mock answers a missing or wrong key
 * itself, as its profile says. An answer whose `Vary` names a field no stub
 * matches still gives its animals to the catalogue, but no stub.
 */
export function recordAnswer({ recording, validator, basePath, upstreamKey }: RecordAnswerOptions, x: Exchange, answer: TargetAnswer, outcome: ProxyOutcome): void {
  if (outcome.upstream !== 'answered') return;
  if (outcome.unchecked) return recording.leaveOut('too large to check');
  if (outcome.violations.length > 0) return recording.leaveOut('broke the contract');
  if (answer.status === 401 || answer.status === 403) return recording.leaveOut('about credentials');
  const { method, url } = x.c.req;
  const operation = validator.operationFor(method, pathBelowBase(url, basePath));
  const bytes = answer.body.bytes();
  if (operation === undefined || bytes === undefined) return;
  const raw = nodeBindings(x.c)?.incoming.rawHeaders ?? [];
  const headers = headerRecord(raw);
  const at = url.indexOf('?');
  const match = variesByUnrecorded(answer.headers.vary) ? undefined : recordedMatch({
    operationId: operation.iid ?? '',
    query: at === -1 ? '' : url.slice(at + 1),
    documentedQuery: (operation.request?.query ?? []).map((parameter) => parameter.name),
    headers,
    // Whole only when shorter than what forward.ts keeps of a streamed body.
    body: x.trace.body === undefined ? undefined : x.trace.body.length < REQUEST_BODY_KEPT ? Buffer.from(x.trace.body) : undefined,
  });
  const decoded = decodeBody(bytes, answer.headers['content-encoding'], 4 * bytes.length + 1024 * 1024);
  const json = decoded.ok ? readJson(decoded.body.toString('utf8')) : undefined;
  // Before anything walks them: JSON.stringify recurses, and the scenario file's reader stops at 100 levels.
  if (recording.nestedTooDeep(json) || recording.nestedTooDeep(match?.body)) return;
  const kept = recordedResponseHeaders(answer.headers);
  const secrets = [...credentials(headers, url), ...(upstreamKey === undefined ? [] : [upstreamKey])];
  const redact = keyRedactor(secrets, '');
  const text = JSON.stringify([match ?? null, kept, json ?? null]);
  if (redact(text) !== text) return recording.leaveOut('held a key');
  recording.add({ operationId: operation.iid ?? '', match, status: answer.status, headers: kept, json });
}

/** Credential values of 8 characters or more (shorter ones turn up inside ordinary words): what no recording may hold. */
function credentials(headers: Readonly<Record<string, string>>, url: string): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_NAME.test(name)) continue;
    values.push(value);
    // `Bearer KEY`, `Basic …`: the credential alone too. A cookie header: each cookie's value.
    values.push(...value.split(/[;,]\s*|\s+/).map((part) => part.slice(part.indexOf('=') + 1)));
  }
  const at = url.indexOf('?');
  for (const [name, value] of new URLSearchParams(at === -1 ? '' : url.slice(at + 1))) if (SECRET_NAME.test(name)) values.push(value);
  return values.filter((value) => value.length >= 8);
}

