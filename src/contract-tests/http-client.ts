import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { JsonTooLarge, MAX_JSON_DEPTH, parseExactJson, unreadJson, type ExactJson } from '../shared/exact-json/parse-exact-json.js';
import { bodyReader, CUT_BODY_KEPT, type Limits, type RawResponse, type Transport } from './body-reader.js';
import { fetchTransport, type FetchFunction } from './fetch-transport.js';
import { sendOnOneConnection } from './one-connection.js';
import { sendHttp10 } from './http-10.js';
import { keyRedactor, REDACTED_KEY } from '../verdict/redact-key.js';
import { withFetchFields, writeFields } from './request-form.js';
import { hostField } from './generate/host-field.js';
import { hostLookup } from './host-lookup.js';
import type { ApiRequest, NearMiss, NearMissCredentials } from './types.js';
import { NOT_SENT, type RecordedExchange, type ReceivedResponse } from '../verdict/exchange.js';

export interface HttpClientOptions {
  /** The API's base URL, ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Per-request time limit, ms: from sending to the body's last byte. */
  timeoutMs: number;
  /** The most bytes of an answer's body read; past them the connection is closed. */
  maxBodyBytes: number;
  /**
   * Extra tries after a network error, never after an HTTP answer whatever
   * its status, and only for GET, HEAD and OPTIONS: a POST that failed in flight may have
   * created its animal, and sending it again could create a second one
   * (RFC 9110 §9.2.2, idempotent methods).
   */
  retries: number;
  /** Sends through this function instead of the network: an app's fetch, a mock engine's, MSW's (`runContract({ fetch })`). */
  fetch?: FetchFunction | undefined;
  /** The mock session every request is sent in (`X-Mock-Session`, docs/sessions.md); none when undefined. */
  session?: string | undefined;
  /** Once aborted (the run stopped by Ctrl-C), nothing more is sent and requests in flight are cut. */
  signal?: AbortSignal | undefined;
}

export type Send = (request: ApiRequest) => Promise<Omit<RecordedExchange, 'operation'>>;

export { REDACTED_KEY };

/**
 * 1 MiB: the largest answer the contract allows is a listPets page of 100
 * animals. The interface sets no limit on names, but even a page of 100
 * animals named with the longest name the harness sends (10,000
 * characters) is 0.96 MiB; a target holding longer names needs
 * --max-body-bytes.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;


/**
 * Sends requests with node:http, a time limit and retries for network
 * errors only: a status is the server's answer and is judged, never
 * retried. The key is redacted in what is recorded, so no report can print
 * it.
 */
export function createHttpClient({ baseUrl, apiKey, timeoutMs, maxBodyBytes, retries, fetch, session, signal }: HttpClientOptions): Send {
  // A request without the key never goes on a connection that carried the key (nor a near-miss a server may take for
  // it): a server that remembers a key per connection is then shown on purpose (ApiRequest.connection `after-key`),
  // with a replay that reproduces it, not by which connection a request got. Requests with no credentials at all share
  // kept-alive connections of their own; any other goes on a connection of its own.
  const transport = fetch ? fetchTransport(fetch) : sendWithNode();
  const keylessTransport: Transport = fetch ? transport : (url, ...rest) => sendWithNode(keylessAgent(url))(url, ...rest);
  const transportOfItsOwn: Transport = fetch
    ? transport
    : async (url, ...rest) => {
        const agent = oneConnection(url);
        try {
          return await sendWithNode(agent)(url, ...rest);
        } finally {
          agent.destroy();
        }
      };
  const base = baseUrl.replace(/\/+$/, '');
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  const origin = new URL(baseUrl).origin;
  const authority = new URL(baseUrl);
  const redactKey = keyRedactor(apiKey.length >= 8 ? [apiKey] : [], REDACTED_KEY);

  return async function send(request) {
    const plain: Record<string, string | string[]> = { accept: 'application/json', ...request.headers };
    for (const [name, path] of Object.entries(request.pathFields ?? {})) plain[name] = basePath + path;
    if (request.form?.host !== undefined) plain.host = hostField(request.form.host, authority);
    const credentials = credentialsOf(request.auth ?? 'key', apiKey);
    if (credentials.authorization !== undefined) plain.authorization = credentials.authorization;
    Object.assign(plain, credentials.fields);
    const written = request.form ? writeFields(plain, request.form, request.body !== undefined) : { headers: plain, without: [] };
    const headers = written.headers;
    const withQuery = (query: string | undefined) => (request.target ? origin : base) + request.path + (query === undefined ? '' : `${request.path.includes('?') ? '&' : '?'}${query}`);
    const url = withQuery(credentials.query);
    // A near-miss's own tokens are hidden too, should a server echo them: they are the key, altered.
    const redact = credentials.shown && apiKey.length >= 8 ? keyRedactor([apiKey, ...nearMissTokens(credentials)], REDACTED_KEY) : redactKey;
    const recorded = {
      method: request.method,
      url: credentials.shown ? withQuery(credentials.shown.query) : redact(url),
      headers: recordHeaders(headers, credentials, apiKey, redact),
      body: request.body === undefined ? undefined : redact(request.body),
      ...(written.without.length ? { without: written.without } : {}),
      ...(request.form?.version ? { version: request.form.version } : {}),
      ...targetOf(request, url),
    };
    if (credentials.notSent) return { request: recorded, networkError: NOT_SENT, ms: 0 };
    if (signal?.aborted) return { request: recorded, networkError: 'not sent: the run was stopped', ms: 0 };
    // A request written in a form of its own carries the fields that form says; any other, those a fetch client sends.
    const fields = request.form ? headers : withFetchFields(headers, request.body !== undefined);
    // After the form (a form that repeats or respells fields must not send the session twice, which the mock refuses), and
    // not recorded: the report names the run's session once, and a curl line pasted after the run stays out of an ended one.
    const sent = session === undefined ? fields : { ...fields, 'x-mock-session': session };
    const started = performance.now();
    let lastError = '';
    const tries = SAFE_METHODS.has(request.method) ? retries : 0;
    // Over a fetch function there is no connection to read byte for byte: the answer is read as any other.
    // HTTP/1.0 only over a socket: a fetch function has no version to choose.
    const keyed = request.auth === undefined || request.auth === 'key' || (typeof request.auth === 'object' && 'scheme' in request.auth);
    // A request that asks for an upgrade also goes on a connection of its own: a server that ignores Upgrade may read nothing
    // more on its connection (node without an 'upgrade' listener does), which must not stall the requests of other rules.
    const upgrade = Object.keys(sent).some((name) => name.toLowerCase() === 'upgrade');
    const over = request.form?.version === '1.0' && !fetch ? sendHttp10 : upgrade ? transportOfItsOwn : keyed ? transport : request.auth === 'none' ? keylessTransport : transportOfItsOwn;
    const asWritten = writtenTarget(request, url);
    if (request.connection === 'after-key' && !fetch) return sendAfterKey(url, request, sent, recorded, { timeoutMs, maxBodyBytes, signal }, apiKey, redact);
    const sendOn = request.connection === 'reused' && !fetch ? (to: string) => sendOnOneConnection(to, request.method, sent, { timeoutMs, maxBodyBytes }) : (to: string) => over(to, request.method, sent, request.body, { timeoutMs, maxBodyBytes, signal, ...(asWritten ? { target: asWritten } : {}) });
    for (let attempt = 0; attempt <= tries; attempt++) {
      try {
        const response = await sendOn(url);
        return { request: recorded, response: redactResponse(response, redact, maxBodyBytes), ms: performance.now() - started };
      } catch (error) {
        lastError = describeNetworkError(error, timeoutMs);
        if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
    return { request: recorded, networkError: redact(lastError), ms: performance.now() - started };
  };
}

/**
 * A GET of the same target with the key, then `request` on the same
 * connection (a keep-alive agent of one socket): RFC 9112 §9.3, each request
 * on a persistent connection stands alone, so the second is answered as if
 * the first had not been sent. When the connection was reused, the recorded
 * request says which it followed, and its curl line sends both (--next).
 */
async function sendAfterKey(url: string, request: ApiRequest, fields: Record<string, string | string[]>, recorded: RecordedExchange['request'], limits: Limits, apiKey: string, redact: Redact): Promise<Omit<RecordedExchange, 'operation'>> {
  const agent = oneConnection(url);
  const unkeyed = ([name]: [string, unknown]) => name.toLowerCase() !== 'authorization' && !/^content-|^transfer-encoding$/i.test(name);
  const keyedFields = { ...Object.fromEntries(Object.entries(fields).filter(unkeyed)), authorization: `Bearer ${apiKey}` };
  const follows = { method: 'GET', url: recorded.url, headers: { ...Object.fromEntries(Object.entries(recorded.headers).filter(unkeyed)), authorization: `Bearer ${REDACTED_KEY}` } };
  const started = performance.now();
  let reused = false;
  try {
    await sendWithNode(agent)(url, 'GET', keyedFields, undefined, limits);
    const response = await sendWithNode(agent, (again) => (reused = again))(url, request.method, fields, request.body, limits);
    return { request: reused ? { ...recorded, follows } : recorded, response: redactResponse(response, redact, limits.maxBodyBytes), ms: performance.now() - started };
  } catch (error) {
    return { request: recorded, networkError: redact(describeNetworkError(error, limits.timeoutMs)), ms: performance.now() - started };
  } finally {
    agent.destroy();
  }
}

/** Kept-alive connections that only requests without credentials use, whatever the run: node's global agent's, apart. */
const KEYLESS_AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
const keylessAgent = (url: string): HttpAgent | HttpsAgent => (url.startsWith('https:') ? KEYLESS_AGENTS.https : KEYLESS_AGENTS.http);

/** An agent of one kept-alive connection, as a client's: its requests go one after the other on it. */
const oneConnection = (url: string): HttpAgent | HttpsAgent => (url.startsWith('https:') ? new HttpsAgent({ keepAlive: true, maxSockets: 1 }) : new HttpAgent({ keepAlive: true, maxSockets: 1 }));

/**
 * The request target as sent, when a curl line cannot send it from the URL:
 * the absolute-form, or a target holding a fragment (curl drops `#…`).
 */
function targetOf(request: ApiRequest, url: string): { target?: string } {
  const written = writtenTarget(request, url);
  if (written !== undefined) return { target: written };
  return url.includes('#') ? { target: url.replace(/^[a-z]+:\/\/[^/?#]*/i, '') } : {};
}

/** The absolute-form as sent (RFC 9112 §3.2.2): the whole URL, its scheme in upper case when asked (RFC 3986 §3.1: case-insensitive). */
function writtenTarget(request: ApiRequest, url: string): string | undefined {
  if (request.target === 'absolute-form') return url;
  if (request.target === 'absolute-form-upper-case-scheme') return url.replace(/^[a-z][a-z0-9+.-]*:/i, (scheme) => scheme.toUpperCase());
  return undefined;
}

/** Methods a client may send again after a network error (RFC 9110 §9.2.1, §9.2.2): they change nothing. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Credentials extends NearMissCredentials {
  /** For a near-miss: what reports print instead. */
  shown?: NearMiss['shown'];
  /** A near-miss this key allows no variant of. */
  notSent?: boolean;
}

/** The Authorization header(s) and query a request's `auth` asks for. */
function credentialsOf(auth: NonNullable<ApiRequest['auth']>, apiKey: string): Credentials {
  if (auth === 'key') return { authorization: `Bearer ${apiKey}` };
  if (auth === 'none') return {};
  if ('scheme' in auth) return { authorization: `${auth.scheme} ${apiKey}` };
  if ('authorization' in auth) return { authorization: auth.authorization };
  const made = auth.nearMiss.make(apiKey);
  return made ? { ...made, shown: auth.nearMiss.shown } : { shown: auth.nearMiss.shown, notSent: true };
}

/** The tokens a near-miss sent: each header's credentials, the query's value and each other field's (a cookie's after its name), decoded. */
function nearMissTokens({ authorization, query, fields }: Credentials): string[] {
  const values = [authorization ?? []].flat().flatMap((value) => value.split(/[\s,]+/));
  // A query's and a cookie's value follow their name and are percent-encoded (RFC 6265 §4.1.1 allows no space or `;` in one); another field holds the token as it is.
  const named = [query ?? [], fields?.cookie ?? []].flat().map((pair) => decoded(pair.slice(pair.indexOf('=') + 1)));
  values.push(...named, ...Object.entries(fields ?? {}).filter(([name]) => name !== 'cookie').map(([, value]) => value));
  return values.filter((token) => token.length >= 4 && !/^(bearer|basic|token)$/i.test(token));
}

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The headers as reports show them: a near-miss's shown credentials, else the key redacted. */
function recordHeaders(headers: Record<string, string | string[]>, credentials: Credentials, apiKey: string, redact: (text: string) => string): Record<string, string | string[]> {
  const hide = (name: string, value: string) => (name.toLowerCase() === 'authorization' ? redactCredentials(value, apiKey, redact) : redact(value));
  const recorded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) recorded[name] = Array.isArray(value) ? value.map((v) => hide(name, v)) : hide(name, value);
  if (credentials.shown?.authorization !== undefined) recorded.authorization = credentials.shown.authorization;
  else if (credentials.shown) delete recorded.authorization;
  Object.assign(recorded, credentials.shown?.fields);
  return recorded;
}

/** Redacts the secrets in a text; `cut`: the text was cut short, and may end in a secret's first characters. */
type Redact = (text: string, cut?: boolean) => string;

/**
 * Where the key is sent, the Authorization header, it is always replaced;
 * anywhere else it is searched for only when it has 8 characters or more
 * (redact-key.ts says why and in which forms).
 */
function redactCredentials(value: string, apiKey: string, redact: (text: string) => string): string {
  // The scheme in any spelling, with any whitespace around (a request written another way), is kept as sent.
  const match = /^(\s*\S+[ \t]+|\s*)(\S+)(\s*)$/.exec(value);
  if (apiKey !== '' && match?.[2] === apiKey) return `${match[1]}${REDACTED_KEY}${match[3]}`;
  return redact(value);
}

/**
 * node:http: it sends a header given as a list once per value, and only the
 * fields it is given (fetch adds its own, joins a repeated header, refuses
 * Transfer-Encoding and some ports, and takes half as much CPU again a
 * run: BENCHMARKS.md). Failures are thrown as fetch's are, with a cause.
 */
const sendWithNode =
  (agent?: HttpAgent | HttpsAgent, sent?: (reused: boolean) => void): Transport =>
  (url, method, headers, body, limits) =>
  new Promise((resolve, reject) => {
    let reader: ReturnType<typeof bodyReader> | undefined;
    const settle = (answer: RawResponse | Error) => {
      clearTimeout(deadline);
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    // node's `timeout` option is the socket's idle time, which a body sent a byte at a time never reaches.
    const deadline = setTimeout(() => {
      if (reader) settle(reader.tooSlow());
      req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
    }, limits.timeoutMs);
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    // node frames a body by its length for POST only: a GET or OPTIONS with one (a method override) would go unframed.
    const framed = body === undefined || Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
    if (!framed) headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    // The request target as written (RFC 9112 §3.2.1): node would parse a URL string and remove its dot segments (RFC 3986 §5.2.4), which a variation sends on purpose.
    // The absolute-form (RFC 9112 §3.2.2) is the whole URL.
    const req = send(url, { method, headers, path: limits.target ?? (url.replace(/^[a-z]+:\/\/[^/?#]*/i, '') || '/'), lookup: hostLookup, ...(agent ? { agent } : {}), ...(limits.signal ? { signal: limits.signal } : {}) }, (res) => {
      sent?.(req.reusedSocket);
      const own = bodyReader(res.statusCode ?? 0, fieldsOf(res), limits);
      reader = own;
      res.on('data', (chunk: Buffer) => {
        if (own.add(chunk)) return;
        settle(own.tooLarge());
        req.destroy();
      });
      res.on('end', () => settle(own.decoded()));
      res.on('error', (error) => settle(Object.assign(new Error('fetch failed'), { cause: error })));
    });
    req.on('error', (error) => settle(error.name === 'TimeoutError' ? error : Object.assign(new Error('fetch failed'), { cause: error })));
    // A server may switch protocols when asked (RFC 9110 §7.8, §15.2.2): the 101 is its answer here; what follows is another protocol, not read.
    req.on('upgrade', (res: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      settle(bodyReader(res.statusCode ?? 101, fieldsOf(res), limits).decoded());
    });
    // A body sent chunked (its Transfer-Encoding field set) goes in two chunks, as a streaming client's would.
    const chunked = body !== undefined && body.length > 1 && Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'transfer-encoding' && /chunked/i.test(String(value)));
    if (!chunked) return void req.end(body);
    const bytes = Buffer.from(body);
    req.write(bytes.subarray(0, bytes.length >> 1));
    req.end(bytes.subarray(bytes.length >> 1));
  });

/**
 * Every field line, repeats joined with `, ` as fetch joins them: node's
 * res.headers keeps only the first of a repeated singleton field
 * (Content-Type), which would hide a second from the checks.
 */
function fieldsOf(res: IncomingMessage): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const [name, values] of Object.entries(res.headersDistinct)) if (values !== undefined) seen[name] = values.join(', ');
  return seen;
}

/**
 * The most JSON values an answer's body is read with: one per 64 bytes of
 * --max-body-bytes, 16,384 at 1 MiB. A page of 100 animals holds about 500;
 * 1 MiB of `[[],[],…]` holds 350,000, a tree of 13 MiB, and a run keeping
 * a few hundred such answers went past 4 GiB.
 */
export const jsonValuesRead = (maxBodyBytes: number): number => Math.floor(maxBodyBytes / 64);

function redactResponse(response: RawResponse, redact: Redact, maxBodyBytes: number): ReceivedResponse {
  const body = redact(response.body, response.unread !== undefined);
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, redact(value)]));
  let read: ExactJson | undefined;
  // A body not read to its end is never parsed: its start may happen to be JSON.
  if (!response.unread && /[/+]json\b/i.test(response.headers['content-type'] ?? '')) {
    try {
      // Exactly: an int64 past 2^53 is a bigint, so it is compared digit for digit (shared/exact-json/).
      read = parseExactJson(body, { values: jsonValuesRead(maxBodyBytes) });
    } catch (error) {
      // Too large a tree to keep: an answer not read, as one past the byte cap is (one finding, its start kept).
      if (error instanceof JsonTooLarge) return { status: response.status, headers, body: body.slice(0, CUT_BODY_KEPT), json: undefined, unread: tooLargeJson(error, maxBodyBytes) };
    }
  }
  const afterward = response.afterward && { ...response.afterward, content: redact(response.afterward.content) };
  return { status: response.status, headers, body, json: read?.value, ...(read ? { view: read.view } : {}), ...(response.unread ? { unread: response.unread } : {}), ...(afterward ? { afterward } : {}) };
}

function tooLargeJson(error: JsonTooLarge, maxBodyBytes: number): NonNullable<ReceivedResponse['unread']> {
  return {
    reason: `the answer's body ${unreadJson(error)}`,
    expected: `JSON at most ${MAX_JSON_DEPTH} levels deep, of at most ${jsonValuesRead(maxBodyBytes)} values (one per 64 bytes of --max-body-bytes): a listPets page of 100 animals holds about 500`,
  };
}

/**
 * An https URL whose port answers plain HTTP: OpenSSL reads the first bytes
 * of an HTTP answer as a TLS record of a version it does not know. Its
 * message names OpenSSL's internals, not the likely slip in the URL.
 */
const PLAIN_HTTP_ANSWER = /wrong version number/;

/** Every network failure is reported as fetch reports one, "fetch failed"; the cause says which. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = err.cause;
  if (cause?.code) {
    const hint = cause.code === 'EPROTO' && PLAIN_HTTP_ANSWER.test(cause.message ?? '') ? ' (is the target plain HTTP? try http://)' : '';
    return `${cause.code}${cause.message ? `: ${cause.message.trim()}` : ''}${hint}`;
  }
  // A cause without a code: its message is the reason.
  if (cause?.message) return cause.message;
  return err.message;
}
