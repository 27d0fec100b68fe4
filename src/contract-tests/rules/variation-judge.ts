import { unacceptedCoding } from '../../verdict/decode-body.js';
import { spellsNumbers, spellsText } from '../generate/json-spelling.js';
import { proxyFields } from '../generate/proxy-fields.js';
import { holdsDotSegment, spellsOtherwise } from '../generate/uri-spelling.js';
import { DIMENSIONS, describeVariation, extraQueryOf, headerForm, otherHostOf, pathFormOf, silentFormOf, variedDimensions, type Dimension, type Variation } from '../generate/variations.js';
import { answerOf } from '../silent-log.js';
import type { RuleContext } from '../types.js';
import type { Statement } from '../../verdict/report.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import { finding } from './generated.js';
import { cite } from './statements.js';
import { AS_WITHOUT_IT } from '../../shared/profile/learn/noted-answers.js';

/**
 * Shrinking a variation tries each dimension's unvaried form first, about
 * two candidates a dimension: 80 cases (each two or three requests) reach
 * the forms that matter without doubling a failing run.
 */
export const VARIATION_SHRINK_BUDGET = 80;

/** Why each dimension's forms mean the same request, as a finding's "expected" says it. */
const WHY: Record<Dimension, string> = {
  accept: 'every Accept sent accepts application/json, and no Accept accepts any type (RFC 9110 §12.5.1); a list over several field lines is the one list they make (RFC 9110 §5.3)',
  acceptLanguage: 'Accept-Language is a preference, and the interface has no languages (RFC 9110 §12.5.4)',
  acceptEncoding: 'Accept-Encoding only says which content codings the client can decode (RFC 9110 §12.5.3), over one field line or several (RFC 9110 §5.3)',
  userAgent: 'User-Agent describes the client; the interface asks for none (RFC 9110 §10.1.5)',
  extraHeader: 'a field the recipient does not know is ignored (RFC 9110 §5.1), and no-cache asks for a fresh answer, which an origin gives anyway (RFC 9111 §5.2.1.4), over one field line or several (RFC 9110 §5.3)',
  connection: 'Connection lists options of this connection only, close or fields meant for the next hop alone, which change nothing of the request (RFC 9110 §7.6.1)',
  fieldNames: 'field names are case-insensitive (RFC 9110 §5.1)',
  headerOrder: 'the order of fields with different names is not significant (RFC 9110 §5.3)',
  whitespace: 'whitespace around a field value, a list comma or a parameter is not part of it (RFC 9110 §5.5, §5.6.1, §5.6.6)',
  scheme: 'the authentication scheme is case-insensitive and may be followed by more than one space (RFC 9110 §11.1, §11.4)',
  transfer: 'a body sent chunked is the same body as one sent with Content-Length (RFC 9112 §6.1); only 411 may ask for the length (RFC 9112 §6.3)',
  extraQuery: 'the interface does not say what an undocumented query parameter does: it may be ignored, or refused with a 4xx Error, never change a 2xx answer',
  querySpelling: 'the interface names parameters, not their order',
  emptyLastSegment: 'the interface names /pets and /pets/{petId}, not /pets/ (RFC 3986 §6.2.3 makes only an empty path "/"): it may be answered as the path without it, redirected or refused with a 4xx Error, but never let in without the key',
  browser: 'fields the interface does not name change nothing (RFC 9110 §5.1): Origin, Referer, Sec-Fetch-*, X-Requested-With, a preflight\'s Access-Control-Request-* and the cookies a browser holds (RFC 6265 §5.4) say which page asked, which any client can write, not who holds the key',
  contentType: 'type and subtype are case-insensitive and charset=utf-8 is what JSON is anyway: the same media type (RFC 9110 §8.3.1, RFC 8259 §8.1)',
  simpleBody: 'a JSON text sent as text/plain or application/x-www-form-urlencoded, or the NewPet\'s members as multipart/form-data parts, is another request, which a server may refuse (415, 400) or read, but never store without the key',
  expect: 'Expect: 100-continue is about the transfer of the content, not the request (RFC 9110 §10.1.1; only 417 may refuse it)',
  httpVersion: 'the same request in HTTP/1.0 (RFC 9112 §2.3; a server may refuse the version with 505, RFC 9110 §15.6.6), with the key answered alike or refused, without it 401',
  target: 'a server MUST accept the absolute-form of a request target, which names the same target URI (RFC 9112 §3.2.2, §3.3)',
  host: 'the host is case-insensitive and the default port written out names the same authority (RFC 3986 §6.2.2.1, §6.2.3; RFC 9110 §4.2.3)',
  otherHost: 'Host is the client\'s to write (RFC 9110 §7.2): another name may be answered as the plain request or refused (421, RFC 9110 §15.5.20; 400; 404), but a request without the key is one whatever its Host, and is never let in',
  upgrade: 'a server may ignore Upgrade and answer the request as it is, or switch protocols with 101 (RFC 9110 §7.8): with the key either, without it 401 or 101, never a 2xx',
  preference: 'a server may ignore Range and Prefer, or honour them: bytes=0- asks for the whole representation, which a server that honours it answers with 206 (RFC 9110 §14.2, §15.3.7), and respond-async with 202 (RFC 7240 §4.1): with the key the same answer or that one, without it 401',
  pathForm: 'RFC 3986 does not make a doubled slash, another case, a ;parameter, %2F or \\ the same path (§3.3, §6.2.2.1, §2.2), nor an empty query piece the same query (§6.2.3), and a request target has no fragment (RFC 9112 §3.2): it may be answered as the plain request, redirected or refused with a 4xx Error, but never let in without the key',
};

/** Why a path and query spelled otherwise by the URI grammar (generate/uri-spelling.ts) are the same. */
const URI_WHY = 'an unreserved character and its percent-encoding, in either case of hex digits, are the same URI, and dot segments (%2E is ".") are removed before a path is used, a ".." above the root too (RFC 3986 §2.3, §6.2.2.1, §6.2.2.2, §5.2.4)';

/** Why fields a proxy adds, which a client can send as well, change nothing (generate/proxy-fields.ts). */
const PROXY_WHY = 'a client can send the fields a proxy adds: "The Forwarded HTTP header field cannot be relied upon to be correct, as it may be modified ... by every node on the way to the server, including the client making the request" (RFC 7239 §8.1), and so can X-Forwarded-*, Via (RFC 9110 §7.6.3), a gateway\'s identity fields and a TLS terminator\'s certificate fields';

/** Why a JSON text spelled otherwise by RFC 8259's grammar (generate/json-spelling.ts) is the same value. */
const JSON_TEXT_WHY = '"Insignificant whitespace is allowed before or after any of the six structural characters" (RFC 8259 §2), "An object is an unordered collection of zero or more name/value pairs" (§4), and "Any character may be escaped" (§7)';
/** Why an integer written with a fraction or an exponent may be refused, but only alike with and without the key. */
const NUMBER_WHY = 'an integer written with a fraction or an exponent (1.0, 1e0) is the same number (RFC 8259 §6), which the interface, saying integer, may refuse with 400 (JSON Schema drafts disagree), but must answer alike however the rest is written, and with 401 without the key';

/** What a case varied, and why it had to be answered as the unvaried request: a finding's "expected". */
export function sameAs(variation: Variation, statement: Statement): string {
  const reasons = [...variedDimensions(variation).map((d) => WHY[d]), ...(spellsOtherwise(variation.uri) ? [URI_WHY] : []), ...(Object.keys(proxyFields(variation.proxy)).length ? [PROXY_WHY] : []), ...(spellsText(variation.json) ? [JSON_TEXT_WHY] : []), ...(spellsNumbers(variation.json) ? [NUMBER_WHY] : [])];
  return `the answer the same request gets as the harness always writes it (${cite(statement)}); this one differs only in ${describeVariation(variation)}: ${reasons.join('; ')}`;
}

/**
 * Another status a variation may get where the unvaried request got a 2xx:
 * a 4xx Error to an undocumented query parameter (the interface is silent),
 * a redirect or a 4xx other than 401 to an empty last segment or another
 * path form (another path, which the interface does not have: how a target
 * refuses a path it does not have is its own choice, a profile's
 * `unknown-path`, 403 included), 400 to a target holding dot segments (the
 * same URI, but a strict firewall refuses a path not normalized, and only
 * hand-written clients send one: `url`, the target as sent), 400 to an integer written with a fraction or an
 * exponent (the interface is silent), 411 to a body sent chunked (RFC 9112 §6.3), a 4xx other than 401 to a JSON
 * body sent as text/plain or a form, 417 to Expect: 100-continue (RFC 9110 §10.1.1), 505 or 426 to HTTP/1.0,
 * a redirect or any 4xx to another name in Host, 101 to an Upgrade (RFC 9110 §7.8), 206 to a Range and 202 to
 * Prefer: respond-async (a server may honour either).
 */
export function excused(variation: Variation, status: number, url = ''): boolean {
  if (extraQueryOf(variation) !== null && status >= 400 && status < 500) return true;
  // Another name may reach another virtual host, whose 401 to the key is no fault of the API's.
  if (otherHostOf(variation) !== null && status >= 300 && status < 500) return true;
  if ((variation.upgrade ?? 0) !== 0 && status === 101) return true;
  if (honoured(variation, status)) return true;
  if (silentFormOf(variation) && status >= 300 && status < 500 && status !== 401) return true;
  if (status === 400 && spellsOtherwise(variation.uri) && holdsDotSegment(url.replace(/^[a-z]+:\/\/[^/?#]*/i, ''))) return true;
  if (spellsNumbers(variation.json) && status === 400) return true;
  if ((variation.simpleBody ?? 0) !== 0 && status >= 400 && status < 500 && status !== 401) return true;
  if ((variation.expect ?? 0) !== 0 && status === 417) return true;
  if ((variation.httpVersion ?? 0) !== 0 && (status === 505 || status === 426)) return true;
  return (variation.transfer ?? 0) !== 0 && DIMENSIONS.transfer[variation.transfer ?? 0] === 'chunked' && status === 411;
}

/** Each form that may be refused, with the statuses it excuses (as `excused` says). */
const EXCUSING: ReadonlyArray<{ dimension: Dimension; excuses: (status: number) => boolean }> = [
  { dimension: 'extraQuery', excuses: (status) => status >= 400 && status < 500 },
  { dimension: 'transfer', excuses: (status) => status === 411 },
  { dimension: 'emptyLastSegment', excuses: (status) => status >= 300 && status < 500 && status !== 401 },
  { dimension: 'pathForm', excuses: (status) => status >= 300 && status < 500 && status !== 401 },
  { dimension: 'simpleBody', excuses: (status) => status >= 400 && status < 500 && status !== 401 },
  { dimension: 'expect', excuses: (status) => status === 417 },
  { dimension: 'httpVersion', excuses: (status) => status === 505 || status === 426 },
  { dimension: 'otherHost', excuses: (status) => status >= 300 && status < 500 },
  { dimension: 'upgrade', excuses: (status) => status === 101 },
  { dimension: 'preference', excuses: (status) => status === 206 || status === 202 },
];

/** A preference a server honoured: 206 to a range, 202 to respond-async. */
function honoured(variation: Variation, status: number): boolean {
  const asked = DIMENSIONS.preference[variation.preference ?? 0];
  return asked !== null && asked !== undefined && (('range' in asked && status === 206) || ('prefer' in asked && status === 202));
}

/**
 * The variation with only its forms that may be refused with `status`. A
 * refusal is excused only when these forms alone get it: otherwise a
 * parameter added beside, say, a missing Accept would hide a server
 * refusing the latter, and dot segments beside a chunked body a server
 * refusing the body with 400.
 * Undefined when the variation holds nothing else (its own answer says).
 */
export function excusingOnly(variation: Variation, status: number): Variation | undefined {
  const only = Object.fromEntries(EXCUSING.filter(({ dimension, excuses }) => (variation[dimension] ?? 0) !== 0 && excuses(status)).map(({ dimension }) => [dimension, variation[dimension]])) as Variation;
  if (spellsNumbers(variation.json) && status === 400) only.json = { numbers: variation.json?.numbers ?? [] };
  // A path form in the absolute-form is read by the URL's own rules (`\` is a `/` there): the target's form goes with it.
  if ((only.pathForm ?? 0) !== 0 && (variation.target ?? 0) !== 0) only.target = variation.target;
  // Of a spelling, its dot segments alone: the rest of it, percent-encodings, may not be refused.
  if (spellsOtherwise(variation.uri) && status === 400) Object.assign(only, { uri: variation.uri, uriPlaces: 'dot-segments' });
  const same = variedDimensions(variation).length === variedDimensions(only).length && (!spellsOtherwise(variation.uri) || (only.uri !== undefined && variation.uriPlaces === 'dot-segments')) && Object.keys(proxyFields(variation.proxy)).length === 0 && !spellsText(variation.json) && spellsNumbers(variation.json) === spellsNumbers(only.json);
  return same ? undefined : only;
}

/**
 * Whether a varied request's refusal is excused: an excused status, got
 * also by the excusing forms alone (sent with `resend` when the variation
 * holds others).
 */
export async function refusalExcused(variation: Variation, varied: RecordedExchange, resend: (only: Variation) => Promise<RecordedExchange>): Promise<boolean> {
  const status = varied.response?.status;
  if (status === undefined || !excused(variation, status, varied.request.url)) return false;
  const only = excusingOnly(variation, status);
  return only === undefined || (await resend(only)).response?.status === status;
}

/** A request field's value as sent, by name in any case, without the whitespace around it. */
export function fieldOf(request: RecordedExchange['request'], name: string): string | undefined {
  const entry = Object.entries(request.headers).find(([n]) => n.toLowerCase() === name);
  return entry === undefined ? undefined : String(entry[1]).trim();
}

/** An answer in a content coding the request did not accept (RFC 9110 §12.5.3). */
export function codingFindings(exchange: RecordedExchange): Finding[] {
  const coding = unacceptedCoding(fieldOf(exchange.request, 'accept-encoding'), exchange.response?.headers['content-encoding']);
  if (coding === undefined) return [];
  const asked = fieldOf(exchange.request, 'accept-encoding');
  return [finding(exchange, `the answer is in the content coding ${coding}, which the request's Accept-Encoding ${JSON.stringify(asked)} does not accept`, 'a content coding the request accepts, or none (RFC 9110 §12.5.3: a server may compress only as the client allows)', '$.headers.content-encoding')];
}

/**
 * The varied request's status against the unvaried one's: the same, or an
 * excused refusal (`isExcused`, from refusalExcused); then the content
 * coding. Network failures are findings of every exchange already.
 */
export function sameStatus(plain: RecordedExchange, varied: RecordedExchange, variation: Variation, statement: Statement, isExcused: boolean): Finding[] {
  const findings = codingFindings(varied);
  const p = plain.response?.status;
  const v = varied.response?.status;
  if (p === undefined || v === undefined || p === v || isExcused) return findings;
  // When the request as the harness always writes it is the one that failed (a 503 of a flaky target), the finding is on that answer: it is the fault, not the variation.
  if (p >= 500 && v < 500) return [...findings, finding(plain, `answered ${p} as the harness always writes the request, where written this other way it got ${v}`, sameAs(variation, statement), '$.status')];
  return [...findings, finding(varied, `answered ${v} where the same request written as the harness always writes it got ${p}`, sameAs(variation, statement), '$.status')];
}

/** The first place two JSON values differ (members compared by name, in any order), or undefined when they are the same. */
export function firstDifference(a: unknown, b: unknown, path = '$.body'): string | undefined {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b) ? undefined : path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const at = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (at) return at;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const name of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const at = name in ra && name in rb ? firstDifference(ra[name], rb[name], `${path}.${name}`) : `${path}.${name}`;
    if (at) return at;
  }
  return undefined;
}

/** The request's fields in a variation's form, when it varies any. */
export const formOf = (variation: Variation) => {
  const form = headerForm(variation);
  return form ? { form } : {};
};

/** Where the interface is silent: what an undocumented query parameter got. */
export function observeExtraQuery(context: RuleContext, plain: RecordedExchange, varied: RecordedExchange, variation: Variation): void {
  // A request refused without the parameter too says nothing of it: its refusal may come before any look at the query.
  const status = plain.response?.status;
  // With an empty last segment or another path form the request names another path: its answer says nothing of the parameter.
  if (extraQueryOf(variation) === null || silentFormOf(variation) || status === undefined || status < 200 || status > 299) return;
  context.observe('unknown-query-parameter', varied.response?.status === plain.response?.status ? AS_WITHOUT_IT : answerOf(varied), varied);
}

/**
 * Where the interface is silent: what a path form RFC 3986 does not call the
 * same got (`// before the first segment: 404 route_not_found`), and a
 * refusal of dot segments, excused (`dot segments: 400 request_rejected`).
 */
export function observeUriForm(context: RuleContext, plain: RecordedExchange | undefined, varied: RecordedExchange, variation: Variation, isExcused: boolean): void {
  const form = pathFormOf(variation);
  const answer = plain !== undefined && varied.response?.status === plain.response?.status ? 'as the plain request' : answerOf(varied);
  if (form !== null) context.observe('uri-forms', `${form}: ${answer}`, varied);
  else if (isExcused && !silentFormOf(variation) && varied.response?.status === 400 && holdsDotSegment(varied.request.url.replace(/^[a-z]+:\/\/[^/?#]*/i, ''))) context.observe('uri-forms', `dot segments: ${answer}`, varied);
}

/** Whether the keyed answer to a variation is a refusal a server may choose for its form, which it may then give without the key too (variation-key.ts). */
export const refusedForItsForm = (variation: Variation, keyed: RecordedExchange): boolean => {
  const status = keyed.response?.status;
  return status !== undefined && (silentFormOf(variation) || excused(variation, status, keyed.request.url));
};
