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

/**
 * Sends requests with fetch, a time limit and retries for network errors
 * only: a status is the server's answer and is judged, never retried. The
 * key is redacted in what is recorded, so no report can print it.
 */
export function createHttpClient({ baseUrl, apiKey, timeoutMs, retries }: HttpClientOptions): Send {
  const base = baseUrl.replace(/\/+$/, '');
  const redact = redactor(apiKey);

  return async function send(request) {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const auth = request.auth ?? 'key';
    if (auth === 'key') headers.authorization = `Bearer ${apiKey}`;
    else if (auth !== 'none') headers.authorization = 'scheme' in auth ? `${auth.scheme} ${apiKey}` : auth.authorization;
    const url = base + request.path;
    const recorded = {
      method: request.method,
      url: redact(url),
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name === 'authorization' ? redactCredentials(value, apiKey) : redact(value)])),
      body: request.body === undefined ? undefined : redact(request.body),
    };
    const started = performance.now();
    let lastError = '';
    const tries = request.method === 'GET' ? retries : 0;
    for (let attempt = 0; attempt <= tries; attempt++) {
      try {
        const response = await fetch(url, {
          method: request.method,
          headers,
          body: request.body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
        });
        return { request: recorded, response: await observe(response, redact), ms: performance.now() - started };
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

async function observe(response: Response, redact: (text: string) => string): Promise<ObservedResponse> {
  const body = redact(await response.text());
  let json: unknown;
  if (/[/+]json\b/i.test(response.headers.get('content-type') ?? '')) {
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = redact(value);
  });
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
