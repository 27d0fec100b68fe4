import fc from 'fast-check';
import type { HeaderForm } from '../types.js';
import type { HostForm } from './host-field.js';
import { everyJsonSpelling, everyNumberSpelling, jsonSpellingArbitrary, spellsNumbers, spellsText, type JsonSpelling } from './json-spelling.js';
import { FORM_DATA_TYPE } from './form-data.js';
import { everyProxySpelling, proxyFields, proxySpellingArbitrary, type ProxySpelling } from './proxy-fields.js';
import { everyUriSpelling, spellsOtherwise, uriSpellingArbitrary, type SpelledPlaces, type UriSpelling } from './uri-spelling.js';

/**
 * The ways a client may write a request without changing what it means
 * (RFC 9110, RFC 9112, RFC 3986, RFC 8259), one dimension each. The first
 * form of every dimension is the request as the harness sends it when
 * nothing is varied, so a case shrinks toward it and the shrunk case shows
 * only the forms that matter. docs/harness-rules.md lists each with the statement it
 * protects and why its forms mean the same.
 */
export const DIMENSIONS = {
  /**
   * RFC 9110 §12.5.1: every form accepts application/json; no Accept at all accepts any media type. Type and subtype are case-insensitive (§8.3.1).
   * A list given as several values goes over that many field lines, which a recipient may combine into one list, in order (§5.3):
   * a client's default and a call's own field, as a proxy or Go's Header.Add writes them.
   */
  accept: ['application/json', null, '*/*', 'application/*', 'application/json;q=0.9, */*;q=0.1', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'Application/JSON', ['text/html', 'application/json']],
  /** RFC 9110 §12.5.4: a preference only; the interface has no languages, so nothing it states may change. */
  acceptLanguage: ['*', null, 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'en-US,en;q=0.9', 'zh-Hant-TW'],
  /** RFC 9110 §12.5.3: the codings the client can decode; an empty value or `identity` asks for none. */
  acceptEncoding: ['gzip, deflate', null, 'identity', 'gzip', 'br;q=1.0, gzip;q=0.8, *;q=0.1', '', ['gzip', 'deflate']],
  /** RFC 9110 §10.1.5: it describes the client; the interface asks for none. */
  userAgent: [
    'node',
    null,
    'curl/8.5.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    // A generated Android or Java client's.
    'okhttp/4.12.0',
    // Health checkers' (Kubernetes' kubelet, AWS's load balancers, Google Cloud's), which any client can write as well: no pass.
    'kube-probe/1.31',
    'ELB-HealthChecker/2.0',
    'GoogleHC/1.0',
  ],
  /** RFC 9110 §5.1: a field the recipient does not know is ignored; §9.2.1 / RFC 9111 §5.2.1.4: no-cache asks for a fresh answer, which an origin gives anyway. */
  extraHeader: [null, { 'x-request-id': '5f0c6a1e-2b7d-4c1a-9d3e-7a8b9c0d1e2f' }, { 'cache-control': 'no-cache' }, { 'cache-control': ['no-cache', 'max-age=0'] }],
  /**
   * RFC 9110 §5.1: fields the interface does not name change nothing. A
   * browser adds them to its fetch and XHR requests (Fetch metadata, Origin,
   * Referer; jQuery and AngularJS X-Requested-With), and any other client
   * can write them: they say nothing of who holds the key.
   */
  browser: [
    null,
    { origin: 'http://localhost', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: 'http://localhost/' },
    { 'x-requested-with': 'XMLHttpRequest' },
    { origin: 'https://app.example', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    // A preflight's fields (Fetch standard), which mean something on an OPTIONS only: on another method, nothing (RFC 9110 §5.1).
    { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    // The cookies a browser holds for the origin go with every request to it (RFC 6265 §5.4): the interface uses none.
    { origin: 'http://localhost', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', cookie: 'theme=dark; _ga=GA1.1.1234567890.1767225600' },
  ],
  /**
   * RFC 9110 §7.6.1: Connection lists options of this connection only
   * (`close`, or names of fields meant for the next hop alone, which an
   * intermediary removes before it forwards): they change nothing of the
   * request. A proxy that removes a field it added itself once a client
   * names it (X-Forwarded-For) shows here. No `keep-alive`: an HTTP/1.0
   * request is read to the connection's close.
   */
  connection: [null, 'close', 'X-Forwarded-For', 'close, X-Forwarded-For, X-Real-IP, Forwarded'],
  /** RFC 9110 §5.1: field names are case-insensitive. */
  fieldNames: ['lower', 'title', 'upper'],
  /** RFC 9110 §5.3: the order of fields with different names carries no meaning. */
  headerOrder: ['as sent', 'reversed', 'authorization first'],
  /** RFC 9110 §5.5, §5.6.1, §5.6.6: whitespace around a value, around list commas and around parameters' semicolons is not part of it. */
  whitespace: [false, true],
  /** RFC 9110 §11.1: the scheme is case-insensitive; §11.4 (and RFC 6750 §2.1): one or more spaces before the token. */
  scheme: ['Bearer', 'bearer', 'BEARER', 'Bearer  '],
  /** RFC 9112 §6.1, §6.2: a body sent chunked is the same body as one with Content-Length (a server may ask for a length with 411, §6.3). */
  transfer: ['content-length', 'chunked'],
  /** RFC 9110 §8.3.1: type and subtype are case-insensitive, and charset=utf-8 is what JSON is anyway (RFC 8259 §8.1, §11). */
  contentType: ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'],
  /**
   * The JSON text under the media types a browser's simple request (no
   * preflight) and `curl -d` send: another request, which a server may
   * refuse (415, 400), but without the key never store. The third such
   * type, multipart/form-data, carries the NewPet's members as parts
   * (form-data.ts), as a browser's FormData and `curl -F` send it.
   */
  simpleBody: [null, 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', FORM_DATA_TYPE],
  /** RFC 9110 §10.1.1: 100-continue is about the transfer of the content, not the request (a server may answer 417). */
  expect: [false, true],
  /**
   * RFC 9112 §2.3, RFC 9110 §6.2: the same request in HTTP/1.0, as nginx
   * sends to its upstreams by default and `curl -0` does (a server may
   * answer 505, §15.6.6). Sent over a socket of its own.
   */
  httpVersion: ['1.1', '1.0'],
  /** A query parameter the document does not name: the interface does not say what it gets (ignored, or refused with a 4xx Error). */
  extraQuery: [null, '_=1767225600000', 'utm_source=newsletter&utm_medium=email'],
  /** The interface names parameters, not their order (their spelling is the URI grammar's: uri-spelling.ts). */
  querySpelling: ['as sent', 'reversed'],
  /**
   * RFC 3986 §6.2.3 normalizes only an empty path to "/": `/pets/` is another
   * path than `/pets`, and the interface names only `/pets` and
   * `/pets/{petId}`. It may be answered as `/pets`, redirected, or refused
   * with a 4xx Error, but without the key never let in.
   */
  emptyLastSegment: [false, true],
  /**
   * RFC 9112 §3.2.2: "a server MUST accept the absolute-form in requests",
   * the form a client sends to a proxy (`GET http://host/v1/pets`), and the
   * target URI it names is the same (§3.3), its scheme written in any case
   * (RFC 3986 §3.1: `HTTP://` is `http://`).
   */
  target: ['origin-form', 'absolute-form', 'absolute-form-upper-case-scheme'],
  /**
   * Forms of the target a client or a proxy produces that RFC 3986 does not
   * make the same (an empty segment is a segment, §3.3; only the scheme and
   * host are case-insensitive, §6.2.2.1; `;` belongs to its segment, §3.3;
   * `/` is reserved, so `%2F` is not it, §2.2; `\` is no URI character; a
   * request target has no fragment, RFC 9112 §3.2; an empty query piece is
   * another query, §6.2.3), but which many routers read as the plain one:
   * like an empty last segment, answered as it, redirected or refused with
   * a 4xx, but without the key never let in.
   */
  pathForm: [null, '// before the first segment', '// before the last segment', 'in upper case', ';x=1 after the last segment', '%2F for the last /', '\\ for the last /', 'a fragment #x', 'an empty query piece last (? or &)', 'an empty query piece first (?&)'],
  /**
   * Host names the target URI's authority (RFC 9110 §7.2), which the client
   * writes: the host is case-insensitive (RFC 3986 §6.2.2.1) and the
   * scheme's default port written out names the same authority (§6.2.3, RFC
   * 9110 §4.2.3). Written from the base URL (generate/host-field.ts).
   */
  host: ['as in the URL', 'in upper case', 'with the default port written'],
  /**
   * Another name in Host: a browser or curl at http://localhost:PORT/ sends
   * `localhost:PORT`, a proxy may keep its client's Host, and any client may
   * write one. Whether it names the same server the harness cannot know (a
   * trailing dot is DNS's absolute name, RFC 3986 §3.2.2, not a URI
   * equivalence; another name may reach another virtual host): it may be
   * answered as the plain request or refused (421, RFC 9110 §15.5.20; 400;
   * 404), but a request without the key is one whatever its Host.
   */
  otherHost: [null, 'with a trailing dot', 'localhost', 'LOCALHOST.', '[::1]'],
  /**
   * RFC 9110 §7.8: a server may ignore Upgrade and answer the request as it
   * is, or switch protocols (101). `curl --http2` on an http URL writes the
   * h2c fields (RFC 7540 §3.2); a WebSocket client the handshake's (RFC 6455 §4.1).
   */
  upgrade: [
    null,
    { upgrade: 'h2c', connection: 'Upgrade, HTTP2-Settings', 'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA' },
    { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
  ],
  /**
   * Fields that ask for another kind of answer, which a server may ignore:
   * a range from the first byte on (RFC 9110 §14.2: a server MAY ignore
   * Range; one that honours it answers 206 with the whole representation,
   * as `bytes=0-` asks for all of it) and an asynchronous answer (RFC 7240
   * §4.1: one that honours it answers 202). With the key, the same answer,
   * or that 206 or 202; without it 401, as any request.
   */
  preference: [null, { range: 'bytes=0-' }, { prefer: 'respond-async' }],
} as const;

export type Dimension = keyof typeof DIMENSIONS;

/**
 * The form drawn for each dimension, by index (0: as the harness sends it
 * unvaried), the path and query's spelling by the URI grammar
 * (uri-spelling.ts), the fields a proxy adds (proxy-fields.ts), and a
 * body's JSON spelling by RFC 8259's grammar (json-spelling.ts). Plain
 * data, so a seed replays it.
 */
export type Variation = Partial<Record<Dimension, number>> & { uri?: UriSpelling; uriPlaces?: SpelledPlaces; proxy?: ProxySpelling; json?: JsonSpelling };

/** The dimensions every operation's requests vary: its fields, and an undocumented query parameter. */
export const EVERY_OPERATION_DIMENSIONS: readonly Dimension[] = ['accept', 'acceptLanguage', 'acceptEncoding', 'userAgent', 'extraHeader', 'browser', 'connection', 'fieldNames', 'headerOrder', 'whitespace', 'scheme', 'extraQuery', 'emptyLastSegment', 'httpVersion', 'target', 'pathForm', 'host', 'otherHost', 'upgrade', 'preference'];

/**
 * Forms where the interface is silent on whether they are the same request:
 * drawn in one case of five, so that most cases judge the equivalent forms
 * beside them in full.
 */
const SILENT: readonly Dimension[] = ['emptyLastSegment', 'simpleBody', 'httpVersion', 'pathForm', 'otherHost'];
export const LIST_DIMENSIONS: readonly Dimension[] = [...EVERY_OPERATION_DIMENSIONS, 'querySpelling'];
export const CREATE_DIMENSIONS: readonly Dimension[] = [...EVERY_OPERATION_DIMENSIONS, 'transfer', 'contentType', 'simpleBody', 'expect'];

/** Whether an operation's requests carry a JSON body, spelled by json-spelling.ts. */
const hasBody = (dimensions: readonly Dimension[]) => dimensions.includes('transfer');

const formOf = <D extends Dimension>(variation: Variation, dimension: D): (typeof DIMENSIONS)[D][number] => DIMENSIONS[dimension][variation[dimension] ?? 0] as (typeof DIMENSIONS)[D][number];

const indexOf = (d: Dimension): fc.Arbitrary<number> => {
  const any = fc.integer({ min: 0, max: DIMENSIONS[d].length - 1 });
  return SILENT.includes(d) ? fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: any }) : any;
};

/** Each dimension an index that shrinks toward 0, the unvaried form; the URI's spelling toward the plain one. */
export function variationArbitrary(dimensions: readonly Dimension[]): fc.Arbitrary<Variation> {
  const body = hasBody(dimensions) ? { json: jsonSpellingArbitrary() } : {};
  return fc.record({ ...Object.fromEntries(dimensions.map((d) => [d, indexOf(d)])), uri: uriSpellingArbitrary(), proxy: proxySpellingArbitrary(), ...body }) as fc.Arbitrary<Variation>;
}

/**
 * Cases tried on every run: the k-th holds every dimension's k-th form (the
 * unvaried one where a dimension has fewer), so each form is sent at least
 * once in a few cases; then each form the interface is silent on alone. A
 * failure shrinks to the forms that matter.
 */
export function everyForm(dimensions: readonly Dimension[]): Variation[] {
  // The forms the interface is silent on go alone below: they do not lengthen the cases that hold every equivalent form.
  const most = Math.max(...dimensions.filter((d) => !SILENT.includes(d)).map((d) => DIMENSIONS[d].length));
  const uri = everyUriSpelling(most - 1);
  const proxy = everyProxySpelling(most - 1);
  const json = everyJsonSpelling(most - 1);
  const body = (i: number) => (hasBody(dimensions) ? { json: json[i] } : {});
  const equivalent = Array.from({ length: most - 1 }, (_, i) => ({ ...Object.fromEntries(dimensions.map((d) => [d, i + 1 < DIMENSIONS[d].length && !SILENT.includes(d) ? i + 1 : 0])), uri: uri[i], proxy: proxy[i], ...body(i) }) as Variation);
  // A form the interface is silent on goes alone: a server may answer it otherwise, which would leave the forms beside it unjudged.
  const plain = { uri: [], proxy: [], ...(hasBody(dimensions) ? { json: { text: [], numbers: [] } } : {}) };
  const silent = dimensions.filter((d) => SILENT.includes(d)).flatMap((d) => DIMENSIONS[d].slice(1).map((_, k) => ({ ...plain, [d]: k + 1 }) as Variation));
  const numbers = hasBody(dimensions) ? everyNumberSpelling().map((spelling) => ({ ...plain, json: spelling }) as Variation) : [];
  return [...equivalent, ...silent, ...numbers];
}

/** The dimensions drawn away from their unvaried form. */
export const variedDimensions = (variation: Variation): Dimension[] => (Object.keys(variation) as Dimension[]).filter((d) => d in DIMENSIONS && (variation[d] ?? 0) !== 0);

/** The forms that differ from the unvaried request, in words (`Accept "application/*"; member order "reversed"`). */
export function describeVariation(variation: Variation): string {
  const words = variedDimensions(variation).map((d) => {
    const form = formOf(variation, d);
    if (form === null) return `no ${LABELS[d]}`;
    if (Array.isArray(form)) return `${LABELS[d]} over ${form.length} field lines ${form.map((line) => JSON.stringify(line)).join(' then ')}`;
    if (typeof form === 'object') return `${LABELS[d]} ${Object.entries(form).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(`, then ${k}: `) : v}`).join(', ')}`;
    if (typeof form === 'boolean') return LABELS[d];
    return `${LABELS[d]} ${JSON.stringify(form)}`;
  });
  const proxy = Object.entries(proxyFields(variation.proxy));
  if (proxy.length) words.push(`fields a proxy adds ${proxy.map(([name, value]) => `${name}: ${value}`).join('; ')}`);
  if (spellsText(variation.json)) words.push('the JSON text spelled another way RFC 8259 allows: whitespace, member order, escapes (as the body sent shows)');
  if (spellsNumbers(variation.json)) words.push('integers written with a fraction or an exponent (as the body sent shows)');
  if (spellsOtherwise(variation.uri)) words.push('the path and query spelled another way RFC 3986 allows (as the curl line shows)');
  return words.length ? words.join('; ') : 'written as the harness always writes it';
}

const LABELS: Record<Dimension, string> = {
  accept: 'Accept',
  acceptLanguage: 'Accept-Language',
  acceptEncoding: 'Accept-Encoding',
  userAgent: 'User-Agent',
  extraHeader: 'an unknown field',
  browser: 'the fields a browser adds',
  connection: 'Connection',
  fieldNames: 'field names',
  headerOrder: 'field order',
  whitespace: 'whitespace around field values, list commas and parameters',
  scheme: 'scheme',
  transfer: 'body sent',
  extraQuery: 'an undocumented query parameter',
  querySpelling: 'query parameters',
  emptyLastSegment: 'an empty last path segment',
  contentType: 'Content-Type',
  simpleBody: 'the JSON body sent as Content-Type',
  expect: 'Expect: 100-continue',
  httpVersion: 'HTTP version',
  target: 'the request target in',
  pathForm: 'the target written a way RFC 3986 does not call the same:',
  host: 'Host',
  otherHost: 'Host',
  upgrade: 'an upgrade asked for:',
  preference: 'another kind of answer asked for:',
};

/** How the HTTP client writes the request's fields: undefined when nothing of them is varied (sent exactly as unvaried requests are). */
export function headerForm(variation: Variation): HeaderForm | undefined {
  const fields: Dimension[] = ['accept', 'acceptLanguage', 'acceptEncoding', 'userAgent', 'extraHeader', 'browser', 'connection', 'fieldNames', 'headerOrder', 'whitespace', 'scheme', 'transfer', 'contentType', 'simpleBody', 'expect', 'httpVersion', 'host', 'otherHost', 'upgrade', 'preference'];
  const proxy = proxyFields(variation.proxy);
  if (!fields.some((d) => (variation[d] ?? 0) !== 0) && Object.keys(proxy).length === 0) return undefined;
  const scheme = formOf(variation, 'scheme');
  const version = formOf(variation, 'httpVersion');
  const contentType = formOf(variation, 'simpleBody') ?? formOf(variation, 'contentType');
  return {
    negotiation: {
      accept: formOf(variation, 'accept'),
      'accept-language': formOf(variation, 'acceptLanguage'),
      'accept-encoding': formOf(variation, 'acceptEncoding'),
      'user-agent': formOf(variation, 'userAgent'),
    },
    extra: { ...(formOf(variation, 'extraHeader') ?? {}), ...(formOf(variation, 'browser') ?? {}), ...(formOf(variation, 'preference') ?? {}), ...proxy, ...upgradeAndConnection(variation) },
    names: formOf(variation, 'fieldNames'),
    order: formOf(variation, 'headerOrder'),
    whitespace: formOf(variation, 'whitespace'),
    scheme: scheme.trim(),
    schemeSpaces: scheme.length - scheme.trim().length || 1,
    // HTTP/1.0 has no chunked transfer coding (RFC 9112 §7.1): such a body goes with its length.
    chunked: formOf(variation, 'transfer') === 'chunked' && version === '1.1',
    ...(contentType === DIMENSIONS.contentType[0] ? {} : { contentType }),
    ...(formOf(variation, 'expect') ? { expect: '100-continue' } : {}),
    ...(version === '1.1' ? {} : { version }),
    ...hostOf(variation),
  };
}

/** An upgrade's fields, its Connection options joined with the connection's own: one Connection field lists them all (RFC 9110 §7.6.1). */
function upgradeAndConnection(variation: Variation): Record<string, string> {
  const upgrade: Record<string, string> = { ...(formOf(variation, 'upgrade') ?? {}) };
  const options = [upgrade.connection, formOf(variation, 'connection')].filter((option) => option !== undefined && option !== null);
  return options.length ? { ...upgrade, connection: options.join(', ') } : upgrade;
}

/** The Host a variation asks for, by the form's name (the value is written from the base URL: generate/host-field.ts). */
function hostOf(variation: Variation): { host?: HostForm } {
  const other = formOf(variation, 'otherHost');
  if (other !== null) return { host: other };
  const host = formOf(variation, 'host');
  return host === DIMENSIONS.host[0] ? {} : { host };
}

export const extraQueryOf = (variation: Variation): string | null => formOf(variation, 'extraQuery');
export const querySpellingOf = (variation: Variation) => formOf(variation, 'querySpelling');
export const emptyLastSegmentOf = (variation: Variation): boolean => formOf(variation, 'emptyLastSegment');
export const pathFormOf = (variation: Variation) => formOf(variation, 'pathForm');
export const targetOf = (variation: Variation) => formOf(variation, 'target');
export const otherHostOf = (variation: Variation) => formOf(variation, 'otherHost');
/** Whether the variation holds a form the interface is silent on (an empty last segment, a path form, another name in Host): another request, which a server may answer otherwise. */
export const silentFormOf = (variation: Variation): boolean => emptyLastSegmentOf(variation) || pathFormOf(variation) !== null || otherHostOf(variation) !== null;
/** Whether a 2xx to the variation is not compared with the plain answer: a target RFC 3986 does not call the same, or another Host, may be read its own way or reach another virtual host. */
export const notComparedOf = (variation: Variation): boolean => pathFormOf(variation) !== null || otherHostOf(variation) !== null;
export const jsonSpellingOf = (variation: Variation): JsonSpelling => variation.json ?? {};
export const simpleBodyOf = (variation: Variation) => formOf(variation, 'simpleBody');
