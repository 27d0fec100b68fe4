import type { IHttpOperation } from '../document/prism.js';
import { normalPath } from '../shared/uri-normal-form.js';
import type { ResponseValidator } from '../document/response-validator.js';
import { checkStatement } from './exchange-check-ids.js';
import { invariantFindings } from './invariants.js';
import { askedFor } from './asked-for.js';
import { mediaTypesOf } from '../shared/media-types.js';
import { deprecationFindings } from './deprecation-signal.js';
import type { RecordedExchange, Finding } from './exchange.js';

type NewFinding = Omit<Finding, 'exchange'>;

const ERROR_STATEMENT = checkStatement('exchange-error-body');
const MEDIA_STATEMENT = checkStatement('exchange-media-type');
const CHARSET_STATEMENT = checkStatement('exchange-json-charset');
const ONCE_STATEMENT = checkStatement('exchange-content-type-once');
const BOM_STATEMENT = checkStatement('exchange-json-bom');
const DATE_STATEMENT = checkStatement('exchange-http-date');
const ETAG_STATEMENT = checkStatement('exchange-etag');
const CACHE_STATEMENT = checkStatement('exchange-cache-control');

// RFC 9110 §8.3.1: type/subtype is case-insensitive; parameters (charset) may follow.
const APPLICATION_JSON = /^application\/json\s*(;|$)/i;
// RFC 9110 §5.6.6: `; name=value`, the name case-insensitive, the value a token or a quoted string.
const PARAMETER = /;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g;

/**
 * The checks every exchange gets, whatever the rule: the connection held, no
 * 5xx, a documented response matches the contract document (prism-http's
 * output validator: content type, body schema, headers), and every error is
 * an Error body whose `status` is the HTTP status, every answer is
 * application/json (one media type in one Content-Type field, with no
 * charset but utf-8, its JSON text not after a byte order mark), its
 * timestamps are IMF-fixdate, its ETag one entity-tag, a success to a key is not offered to shared caches, and the invariants of the operation hold. The rule itself then
 * checks what it is about (which status, which items).
 */
export function checkExchange(validator: ResponseValidator, operation: IHttpOperation | undefined, exchange: RecordedExchange): NewFinding[] {
  const { response } = exchange;
  if (!response) {
    return [{ check: 'exchange-connection', level: 'error', hard: true, message: `the connection failed: ${exchange.networkError}`, expected: 'an HTTP response', path: '$' }];
  }
  // What a body not read to its end holds cannot be judged: this one finding, and no more read into its start.
  if (response.unread) return [{ check: 'exchange-body-read', level: 'error', hard: true, message: response.unread.reason, expected: response.unread.expected, path: '$.body' }];
  // An answer the request asked for in a field of its own: no answer of the operation, or the 200 a whole range stands for.
  const asked = askedFor(exchange);
  if (asked === 'other-protocol' || asked === 'accepted') return [];
  if (asked === 'whole-range') return checkExchange(validator, operation, { ...exchange, response: { ...response, status: 200 } });
  const findings: NewFinding[] = [...httpDateFindings(response), ...etagFindings(response), ...sharedCacheFindings(exchange.request.headers, response)];
  const { method } = exchange.request;
  if (response.status >= 500 && !(response.status === 501 && notImplementable(operation, method))) {
    findings.push({ check: 'exchange-no-5xx', level: 'error', hard: true, message: `the server answered ${response.status}`, expected: 'no 5xx: the interface lists none', path: '$.status' });
  }
  const documented = operation?.responses.some((r) => r.code === String(response.status)) ?? false;
  // A success the operation does not document (getPet answering 201) is never a choice left open.
  if (operation && !documented && response.status < 400 && !(response.status === 304 && conditional(exchange.request.headers))) {
    findings.push({ check: 'exchange-documented-status', level: 'error', hard: true, message: `${operation.iid} answered ${response.status}, which it does not document`, expected: `one of ${operation.responses.map((r) => r.code).join(', ')} (the contract document)`, path: '$.status' });
  }
  const contentType = response.headers['content-type'];
  const mediaTypes = mediaTypesOf(contentType ?? '');
  // A JSON text after a byte order mark is no JSON text (RFC 8259 §8.1): its schema and Error body are not judged apart, so the answer gets one finding.
  const bom = mediaTypes.length === 1 && APPLICATION_JSON.test(mediaTypes[0] as string) && response.body.startsWith('\uFEFF');
  // A body whose media type cannot be told has no schema to be judged by (exchange-content-type-once says why).
  if (operation && documented && mediaTypes.length <= 1 && !bom) {
    for (const v of validator.validate(operation, response)) {
      if (v.severity !== 'error') continue;
      findings.push({ check: 'exchange-response-schema', level: 'error', message: v.message, expected: `the response documented for ${operation.iid} ${response.status} in the contract document`, path: jsonPath(v.path) });
    }
  }
  // An answer that carries no content has no media type to judge, nor an Error body (RFC 9110 §9.3.2, §15.3.5, §15.4.5).
  if (withoutContent(method, response.status, response.body)) return [...findings, ...deprecationFindings(operation?.iid, response), ...invariantFindings(operation, exchange)];
  if (mediaTypes.length > 1) {
    // The media type and its charset are not judged: a recipient cannot tell which of the types they would be read from.
    findings.push({ check: 'exchange-content-type-once', level: 'error', hard: true, message: `the ${response.status} answer's Content-Type names ${mediaTypes.length} media types: ${contentType}`, expected: `one Content-Type field with one media type (${ONCE_STATEMENT})`, path: '$.headers.content-type' });
  } else if (!APPLICATION_JSON.test(mediaTypes[0] ?? '')) {
    findings.push({ check: 'exchange-media-type', level: 'error', hard: true, message: `the ${response.status} answer is sent as ${contentType ?? 'no content type'}`, expected: `application/json (${MEDIA_STATEMENT})`, path: '$.headers.content-type' });
  } else {
    const charset = charsetOf(mediaTypes[0] as string);
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
      findings.push({ check: 'exchange-json-charset', level: 'error', hard: true, message: `the ${response.status} answer is labelled charset=${charset}`, expected: `no charset, or charset=utf-8 (${CHARSET_STATEMENT})`, path: '$.headers.content-type' });
    } else if (bom) {
      findings.push({ check: 'exchange-json-bom', level: 'error', hard: true, message: `the ${response.status} answer's body starts with a byte order mark (EF BB BF) before its JSON text`, expected: `the JSON text from the body's first byte (${BOM_STATEMENT})`, path: '$.body' });
    }
  }
  if (response.status >= 400 && !bom) findings.push(...errorBodyFindings(response.status, response.json, contentType));
  findings.push(...deprecationFindings(operation?.iid, response), ...invariantFindings(operation, exchange));
  return findings;
}

/**
 * A 501 to a method the document gives the path no operation for: RFC 9110
 * §9.1 says a server SHOULD answer so to a method it does not implement.
 * Not to GET or HEAD, which every general-purpose server MUST support.
 */
const notImplementable = (operation: IHttpOperation | undefined, method: string): boolean => !operation && method !== 'GET' && method !== 'HEAD';

/** A 304 answers only a request with a precondition (RFC 9110 §13.1.2, §13.1.3, §15.4.5). */
const conditional = (headers: Record<string, string | string[]>): boolean => Object.keys(headers).some((name) => /^if-(none-match|modified-since)$/i.test(name));

/** An answer to HEAD, a 204, a 304, or an empty success to OPTIONS (a preflight's): no content, so no media type. */
const withoutContent = (method: string, status: number, body: string): boolean =>
  method === 'HEAD' || status === 204 || status === 304 || (method === 'OPTIONS' && status < 300 && body === '');

// RFC 9110 §5.6.7: IMF-fixdate = day-name "," SP day SP month SP year SP hour ":" minute ":" second SP "GMT", case-sensitive.
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The answer fields whose value is an HTTP-date (Retry-After may be a number of seconds instead). */
const DATE_FIELDS = ['date', 'last-modified', 'expires', 'retry-after'] as const;

/** Whether a value is an IMF-fixdate that names a real moment: its day of the month exists, its time is within the day (a leap second, 60, allowed), and its day-name is that date's. */
export function isImfFixdate(value: string): boolean {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return false;
  const [, dayName, day, month, year, hour, minute, second] = match as unknown as string[];
  const moment = new Date(Date.UTC(Number(year), MONTHS.indexOf(month as string), Number(day)));
  if (moment.getUTCDate() !== Number(day) || moment.getUTCFullYear() !== Number(year)) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return false;
  return DAY_NAMES[moment.getUTCDay()] === dayName;
}

/** A timestamp in another form than IMF-fixdate: what RFC 9110 §5.6.7 says no sender may generate, whatever its recipients accept. */
function httpDateFindings(response: { status: number; headers: Record<string, string> }): NewFinding[] {
  const findings: NewFinding[] = [];
  for (const field of DATE_FIELDS) {
    const value = response.headers[field];
    if (value === undefined || (field === 'retry-after' && /^\d+$/.test(value)) || isImfFixdate(value)) continue;
    const expected = field === 'retry-after' ? 'a number of seconds or an IMF-fixdate' : 'one IMF-fixdate, such as Sun, 06 Nov 1994 08:49:37 GMT';
    findings.push({ check: 'exchange-http-date', level: 'error', hard: true, message: `the ${response.status} answer's ${field} is ${JSON.stringify(value)}`, expected: `${expected} (${DATE_STATEMENT})`, path: `$.headers.${field}` });
  }
  return findings;
}

// RFC 9110 §8.8.3: entity-tag = [ weak ] opaque-tag; weak = %s"W/" (case-sensitive); opaque-tag = DQUOTE *etagc DQUOTE;
// etagc = %x21 / %x23-7E / obs-text (%x80-FF): no space, no DQUOTE inside. A field value is read one character a byte.
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/;

/** Whether a value is one entity-tag, weak or strong, as RFC 9110 §8.8.3 writes it. */
const isEntityTag = (value: string): boolean => ENTITY_TAG.test(value);

/**
 * An ETag that is not one entity-tag (unquoted, `w/`, two field lines joined):
 * a client that sends it back in If-None-Match sends what the server cannot
 * compare (RFC 9110 §13.1.2), so revalidation silently fails.
 */
function etagFindings(response: { status: number; headers: Record<string, string> }): NewFinding[] {
  const value = response.headers.etag;
  if (value === undefined || isEntityTag(value)) return [];
  return [{ check: 'exchange-etag', level: 'error', hard: true, message: `the ${response.status} answer's ETag is ${JSON.stringify(value)}`, expected: `one entity-tag, such as "a1b2" or W/"a1b2" (${ETAG_STATEMENT})`, path: '$.headers.etag' }];
}

/** A Cache-Control field's directives (RFC 9111 §5.2): names in lower case, each with its value unquoted, or '' for none. */
export function cacheDirectives(value: string | undefined): Map<string, string> {
  const directives = new Map<string, string>();
  for (const [, name, quoted, token] of (value ?? '').matchAll(/([!#$%&'*+.^_`|~\w-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*)))?/g)) {
    directives.set((name as string).toLowerCase(), quoted ?? token ?? '');
  }
  return directives;
}

/**
 * Why a shared cache may keep this answer to a request with Authorization
 * and give it to another (RFC 9111 §3.5: public, s-maxage, must-revalidate
 * while fresh), or undefined when it may not: no such directive, one that
 * forbids it (no-store, private) or makes every use ask the origin (no-cache),
 * or a Vary naming Authorization (or `*`), which keys the copy on the key.
 */
export function sharedWithoutKey(response: { headers: Record<string, string> }): string | undefined {
  const directives = cacheDirectives(response.headers['cache-control']);
  if (['no-store', 'private', 'no-cache'].some((name) => directives.get(name) === '')) return undefined;
  const vary = (response.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase());
  if (vary.includes('authorization') || vary.includes('*')) return undefined;
  const fresh = Number(directives.get('max-age') ?? directives.get('s-maxage') ?? 0) > 0;
  const allowing = directives.has('public') ? 'public' : directives.has('s-maxage') ? 's-maxage' : directives.has('must-revalidate') && fresh ? 'must-revalidate while fresh' : undefined;
  return allowing && `Cache-Control: ${response.headers['cache-control']} (${allowing}) without Vary: Authorization`;
}

/** A success to a request that carried a key (an Authorization field) that a shared cache may give to another client, one without the key included. */
function sharedCacheFindings(request: Record<string, string | string[]>, response: { status: number; headers: Record<string, string> }): NewFinding[] {
  if (response.status < 200 || response.status > 299 || !Object.keys(request).some((name) => name.toLowerCase() === 'authorization')) return [];
  const shared = sharedWithoutKey(response);
  if (shared === undefined) return [];
  return [{ check: 'exchange-cache-control', level: 'error', hard: true, message: `the ${response.status} answer to a request with the key has ${shared}`, expected: `no directive that lets a shared cache give it to another client, or Vary: Authorization (${CACHE_STATEMENT})`, path: '$.headers.cache-control' }];
}

function errorBodyFindings(status: number, json: unknown, contentType: string | undefined): NewFinding[] {
  const body = json as Record<string, unknown> | undefined;
  if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ check: 'exchange-error-body', level: 'error', hard: true, message: `the ${status} answer is not a JSON Error body (content type ${contentType ?? 'none'})`, expected: ERROR_STATEMENT, path: '$.body' }];
  }
  const findings: NewFinding[] = [];
  for (const [field, type] of [['code', 'string'], ['message', 'string'], ['status', 'number']] as const) {
    if (typeof body[field] !== type) {
      findings.push({ check: 'exchange-error-body', level: 'error', hard: true, message: `Error body field ${field} is ${body[field] === undefined ? 'missing' : `a ${typeof body[field]}`}`, expected: ERROR_STATEMENT, path: `$.body.${field}` });
    }
  }
  if (typeof body.status === 'number' && body.status !== status) {
    findings.push({ check: 'exchange-error-body', level: 'error', hard: true, message: `Error body status is ${body.status}, the HTTP status ${status}`, expected: ERROR_STATEMENT, path: '$.body.status' });
  }
  return findings;
}


/** The value of a media type's charset parameter, unquoted; undefined when it has none. */
export function charsetOf(contentType: string): string | undefined {
  for (const [, name, value] of contentType.matchAll(PARAMETER)) {
    if ((name as string).toLowerCase() !== 'charset') continue;
    const raw = value as string;
    return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return undefined;
}

/** The request's path below the base URL's path: `/v1/pets/3` → `/pets/3`. */
export function pathBelowBase(url: string, basePath: string): string {
  // As RFC 3986 §6.2.2 names the resource: URL removes dot segments (§5.2.4), and `/v1/%70ets` is `/v1/pets`.
  const pathname = normalPath(url);
  return pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
}

/** prism's path (`['body', '0', 'name']`) as a JSON path: `$.body[0].name`. */
function jsonPath(path: string[]): string {
  return '$' + path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
}
