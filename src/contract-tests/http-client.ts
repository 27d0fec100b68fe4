import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ApiRequest, Exchange, ObservedResponse } from './types.js';

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
  const redact = redactor(apiKey);

  return async function send(request) {
    const headers: Record<string, string | string[]> = { accept: 'application/json', ...request.headers };
    const auth = request.auth ?? 'key';
    const miss = typeof auth === 'object' && 'nearMiss' in auth ? auth.nearMiss : undefined;
    const made = miss?.make(apiKey);
    if (auth === 'key') headers.authorization = `Bearer ${apiKey}`;
    else if (made?.authorization !== undefined) headers.authorization = made.authorization;
    else if (typeof auth === 'object' && 'scheme' in auth) headers.authorization = `${auth.scheme} ${apiKey}`;
    else if (typeof auth === 'object' && 'authorization' in auth) headers.authorization = auth.authorization;
    const withQuery = (query: string | undefined) => base + request.path + (query === undefined ? '' : `${request.path.includes('?') ? '&' : '?'}${query}`);
    const url = withQuery(made?.query);
    const hide = (name: string, value: string) => (name === 'authorization' ? redactCredentials(value, apiKey) : redact(value));
    const recorded = {
      method: request.method,
      url: miss ? withQuery(miss.shown.query) : redact(url),
      headers: Object.fromEntries(Object.entries({ ...headers, ...(miss?.shown.authorization !== undefined ? { authorization: miss.shown.authorization } : {}) }).map(([name, value]) => [name, miss && name === 'authorization' ? value : Array.isArray(value) ? value.map((v) => hide(name, v)) : hide(name, value)])),
      body: request.body === undefined ? undefined : redact(request.body),
    };
    if (miss && !made) return { request: recorded, networkError: NOT_SENT, ms: 0 };
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

/**
 * Where the key is sent, the Authorization header, it is always replaced.
 * Anywhere else (URLs, bodies, response headers a server might echo it in)
 * every occurrence is replaced, unless the key is shorter than 8 characters:
 * so short a string turns up inside ordinary words (`keep-alive` for a key
 * `k`), and replacing it there would garble the report without hiding more.
 */
function redactor(apiKey: string): (text: string) => string {
  return apiKey.length >= 8 ? (text) => text.split(apiKey).join(REDACTED_KEY) : (text) => text;
}

function redactCredentials(value: string, apiKey: string): string {
  const space = value.indexOf(' ');
  const credentials = space === -1 ? value : value.slice(space + 1).trim();
  if (apiKey !== '' && credentials === apiKey) return `${value.slice(0, space + 1)}${REDACTED_KEY}`;
  return redactor(apiKey)(value);
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
