import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { keyRedactor } from './redact-key.js';
import type { ApiRequest, Exchange, NearMiss, ObservedResponse } from './types.js';

export interface HttpClientOptions {
  /** The API's base URL, ending in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Per-request time limit, ms. */
  timeoutMs: number;
  /**
   * Extra tries after a network error, never after an HTTP answer whatever
   * its status, and only for GET: a POST that failed in flight may have
   * created its animal, and sending it again could create a second one
   * (RFC 9110 §9.2.2, idempotent methods).
   */
  retries: number;
}

export type Send = (request: ApiRequest) => Promise<Omit<Exchange, 'operation'>>;

/** The text shown in place of the API key, everywhere. */
export const REDACTED_KEY = '<API key>';

/** The network error of a near-miss that this key allows no variant of: nothing was sent. */
export const NOT_SENT = 'not sent: the key allows no such variant';

/**
 * Sends requests with fetch, a time limit and retries for network errors
 * only: a status is the server's answer and is judged, never retried. The
 * key is redacted in what is recorded, so no report can print it.
 */
export function createHttpClient({ baseUrl, apiKey, timeoutMs, retries }: HttpClientOptions): Send {
  const base = baseUrl.replace(/\/+$/, '');
  const redactKey = keyRedactor(apiKey.length >= 8 ? [apiKey] : [], REDACTED_KEY);

  return async function send(request) {
    const headers: Record<string, string | string[]> = { accept: 'application/json', ...request.headers };
    const credentials = credentialsOf(request.auth ?? 'key', apiKey);
    if (credentials.authorization !== undefined) headers.authorization = credentials.authorization;
    const withQuery = (query: string | undefined) => base + request.path + (query === undefined ? '' : `${request.path.includes('?') ? '&' : '?'}${query}`);
    const url = withQuery(credentials.query);
    // A near-miss's own tokens are hidden too, should a server echo them: they are the key, altered.
    const redact = credentials.shown && apiKey.length >= 8 ? keyRedactor([apiKey, ...nearMissTokens(credentials)], REDACTED_KEY) : redactKey;
    const recorded = {
      method: request.method,
      url: credentials.shown ? withQuery(credentials.shown.query) : redact(url),
      headers: recordHeaders(headers, credentials, apiKey, redact),
      body: request.body === undefined ? undefined : redact(request.body),
    };
    if (credentials.notSent) return { request: recorded, networkError: NOT_SENT, ms: 0 };
    // fetch joins a repeated header into one line; node:http sends each value on its own.
    const transport = Object.values(headers).some(Array.isArray) ? sendWithNode : sendWithFetch;
    const started = performance.now();
    let lastError = '';
    const tries = request.method === 'GET' ? retries : 0;
    for (let attempt = 0; attempt <= tries; attempt++) {
      try {
        const response = await transport(url, request.method, headers, request.body, timeoutMs);
        return { request: recorded, response: redactResponse(response, redact), ms: performance.now() - started };
      } catch (error) {
        lastError = describeNetworkError(error, timeoutMs);
        if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
    return { request: recorded, networkError: redact(lastError), ms: performance.now() - started };
  };
}

interface Credentials {
  authorization?: string | string[];
  query?: string;
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

/** The tokens a near-miss sent: each header's credentials, the query's value, decoded. */
function nearMissTokens({ authorization, query }: Credentials): string[] {
  const values = [authorization ?? []].flat().flatMap((value) => value.split(/[\s,]+/));
  if (query) values.push(decodeURIComponent(query.slice(query.indexOf('=') + 1)));
  return values.filter((token) => token.length >= 4 && !/^(bearer|basic|token)$/i.test(token));
}

/** The headers as reports show them: a near-miss's shown credentials, else the key redacted. */
function recordHeaders(headers: Record<string, string | string[]>, credentials: Credentials, apiKey: string, redact: (text: string) => string): Record<string, string | string[]> {
  const hide = (name: string, value: string) => (name === 'authorization' ? redactCredentials(value, apiKey, redact) : redact(value));
  const recorded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) recorded[name] = Array.isArray(value) ? value.map((v) => hide(name, v)) : hide(name, value);
  if (credentials.shown?.authorization !== undefined) recorded.authorization = credentials.shown.authorization;
  else if (credentials.shown) delete recorded.authorization;
  return recorded;
}

/**
 * Where the key is sent, the Authorization header, it is always replaced;
 * anywhere else it is searched for only when it has 8 characters or more
 * (redact-key.ts says why and in which forms).
 */
function redactCredentials(value: string, apiKey: string, redact: (text: string) => string): string {
  const space = value.indexOf(' ');
  const credentials = space === -1 ? value : value.slice(space + 1).trim();
  if (apiKey !== '' && credentials === apiKey) return `${value.slice(0, space + 1)}${REDACTED_KEY}`;
  return redact(value);
}

type Transport = (url: string, method: string, headers: Record<string, string | string[]>, body: string | undefined, timeoutMs: number) => Promise<RawResponse>;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const sendWithFetch: Transport = async (url, method, headers, body, timeoutMs) => {
  const response = await fetch(url, { method, headers: headers as Record<string, string>, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  const text = await response.text();
  const seen: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    seen[name] = value;
  });
  return { status: response.status, headers: seen, body: text };
};

/** node:http, which sends a header given as a list once per value. Failures are thrown as fetch's are, with a cause. */
const sendWithNode: Transport = (url, method, headers, body, timeoutMs) =>
  new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const seen: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) seen[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers: seen, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error) => reject(Object.assign(new Error('fetch failed'), { cause: error })));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
    req.on('error', (error) => reject(error.name === 'TimeoutError' ? error : Object.assign(new Error('fetch failed'), { cause: error })));
    req.end(body);
  });

function redactResponse(response: RawResponse, redact: (text: string) => string): ObservedResponse {
  const body = redact(response.body);
  let json: unknown;
  if (/[/+]json\b/i.test(response.headers['content-type'] ?? '')) {
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
  }
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, redact(value)]));
  return { status: response.status, headers, body, json };
}

/** fetch reports every network failure as "fetch failed"; the cause says which. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = err.cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  // Some causes have no code (undici's "bad port" for the ports fetch refuses): their message is the reason.
  if (cause?.message) return cause.message;
  return err.message;
}
