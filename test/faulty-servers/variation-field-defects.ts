import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, rewriteRequest, withKey } from './http.js';
import { AUTH, letsInWhen } from './variation-key-defects.js';

/**
 * Servers that read one request field (RFC 9110) otherwise than the plain
 * request's: for a field the interface relies on left out (Accept on an
 * error answer), and for the fields proxies add, which a client can send as
 * well (src/contract-tests/generate/proxy-fields.ts), one answers otherwise,
 * refuses, or lets the request in without the key; so do the fields a
 * browser adds, the rewrite fields of front ends, and the body's media type.
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const CLIENT_SET = 'Endpoints: each operation answers as it states, whoever forwarded the request: "The Forwarded HTTP header field cannot be relied upon to be correct, as it may be modified ... by every node on the way to the server, including the client making the request" (RFC 7239 §8.1); so are X-Forwarded-*.';
const ERRORS_JSON = 'Errors: every error response has the Error body (401 for a missing key, 404 for an unknown id); a request without Accept accepts any media type (RFC 9110 §12.5.1).';

const field = (request: Request, name: string) => request.headers.get(name) ?? '';
const LOOPBACK = /(^|[\s,"=[])(127\.\d+\.\d+\.\d+|::1)\b/;
const LOOPBACK_OR_PRIVATE = /^\s*(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|\[::1\])/;
const CLIENT_ADDRESS = ['x-real-ip', 'true-client-ip', 'cf-connecting-ip', 'x-client-ip'];

/** The request with the key, as the router reads it: another path or media type than the request's own. */
async function routedWithKey(request: Request, changes: { pathname?: string; contentType?: string }): Promise<Request> {
  const keyed = await withKey(request);
  const url = new URL(keyed.url);
  if (changes.pathname !== undefined) url.pathname = changes.pathname;
  const headers = new Headers(keyed.headers);
  if (changes.contentType !== undefined) headers.set('content-type', changes.contentType);
  return rewriteRequest(keyed, { url: url.href, headers });
}

/** Rewrites an error answer of the mock (a 4xx) to a request without Accept. */
const onErrorWithoutAccept =
  (when: (request: Request, status: number) => boolean, answer: () => Response) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    const response = await fetch(request, env);
    return !request.headers.has('accept') && response.status >= 400 && when(request, response.status) ? answer() : response;
  };

export const variationFieldDefects: Defect[] = [
  {
    // The key skipped for "local" callers, told by a field any client can send.
    name: 'X-Forwarded-For: 127.0.0.1 taken for a local caller, the key skipped',
    breaks: AUTH,
    wrap: letsInWhen((request) => LOOPBACK.test(field(request, 'x-forwarded-for'))),
    caughtBy: EVERY,
  },
  {
    name: 'Forwarded: for=127.0.0.1 (or for="[::1]") taken for a local caller, the key skipped',
    breaks: AUTH,
    wrap: letsInWhen((request) => /for=/i.test(field(request, 'forwarded')) && LOOPBACK.test(field(request, 'forwarded'))),
    caughtBy: EVERY,
  },
  {
    // An HTTPS-only check that trusts the client's word for the scheme.
    name: 'X-Forwarded-Proto: http refused with 403 (https required)',
    breaks: CLIENT_SET,
    wrap: (fetch) => (request, env) => (hasKey(request) && field(request, 'x-forwarded-proto').trim() === 'http' ? errorResponse(403, 'https_required', 'use https') : fetch(request, env)),
    caughtBy: EVERY,
  },
  {
    // Virtual hosts chosen by a field the client sets.
    name: 'X-Forwarded-Host other than localhost answered 404 (no such host)',
    breaks: CLIENT_SET,
    wrap: (fetch) => (request, env) => {
      const host = field(request, 'x-forwarded-host').trim();
      return hasKey(request) && host !== '' && host !== 'localhost' ? errorResponse(404, 'unknown_host', `no site ${host}`) : fetch(request, env);
    },
    caughtBy: EVERY,
  },
  {
    // nginx's X-Real-IP, a CDN's True-Client-IP or CF-Connecting-IP taken for the caller's address: any client writes them.
    name: 'X-Real-IP, True-Client-IP, CF-Connecting-IP or X-Client-IP naming a loopback or private address taken for an internal caller, the key skipped',
    breaks: `${AUTH} RFC 7239 §8.1: such fields may be set by the client itself.`,
    wrap: letsInWhen((request) => CLIENT_ADDRESS.some((name) => LOOPBACK_OR_PRIVATE.test(field(request, name)))),
    caughtBy: EVERY,
  },
  {
    // The IIS / Symfony class: the front end's rewrite field taken as "already checked", and the router reads it.
    name: 'X-Original-URL or X-Rewrite-URL taken as checked by the front end and routed by, the key skipped',
    breaks: AUTH,
    wrap: (fetch) => async (request, env) => {
      const rewritten = request.headers.get('x-original-url') ?? request.headers.get('x-rewrite-url');
      return rewritten === null ? fetch(request, env) : fetch(await routedWithKey(request, { pathname: new URL(rewritten, 'http://x').pathname }), env);
    },
    caughtBy: ['vary-rewrite-fields'],
  },
  {
    // Fetch metadata read as "from our own UI".
    name: 'Sec-Fetch-Site: same-origin (or same-site) taken for the own front end, the key skipped',
    breaks: AUTH,
    wrap: letsInWhen((request) => /same-origin|same-site/i.test(field(request, 'sec-fetch-site'))),
    caughtBy: EVERY,
  },
  {
    // jQuery's and AngularJS's AJAX marker read as "from our own UI".
    name: 'X-Requested-With: XMLHttpRequest taken for the own front end, the key skipped',
    breaks: AUTH,
    wrap: letsInWhen((request) => /xmlhttprequest/i.test(field(request, 'x-requested-with'))),
    caughtBy: EVERY,
  },
  {
    // The key check bound to the route for exactly application/json; a fallback parses any JSON type.
    name: 'createPet with a Content-Type other than exactly application/json (a charset, another case) stored without the key',
    breaks: `${AUTH} RFC 9110 §8.3.1: type and subtype are case-insensitive; charset=utf-8 does not change the type.`,
    wrap: letsInWhen((request) => operationOf(request) === 'createPet' && /json/i.test(field(request, 'content-type')) && field(request, 'content-type') !== 'application/json'),
    caughtBy: ['vary-create-pet'],
  },
  {
    // A public route for a browser's simple requests (no preflight) shares the path and parses the text as JSON.
    name: 'createPet sent as text/plain or a form without the key parsed as JSON and stored (with the key: 400, as the mock)',
    breaks: AUTH,
    wrap: (fetch) => async (request, env) =>
      !request.headers.has('authorization') && operationOf(request) === 'createPet' && /^(text\/plain|application\/x-www-form-urlencoded)/i.test(field(request, 'content-type'))
        ? fetch(await routedWithKey(request, { contentType: 'application/json' }), env)
        : fetch(request, env),
    caughtBy: ['vary-create-pet'],
  },
  {
    // The error handler negotiates a media type and fails when the client named none.
    name: 'an error answer (401, 404) to a request without Accept becomes a 500',
    breaks: ERRORS_JSON,
    wrap: onErrorWithoutAccept(() => true, () => errorResponse(500, 'internal_error', 'no media type to answer in')),
    caughtBy: EVERY,
  },
  {
    // A cache in front that serves byte ranges of what it holds before any key check, a range request taken for a media fetch.
    name: 'a request with Range: bytes=0- let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((request) => request.headers.has('range')),
    caughtBy: EVERY,
  },
  {
    // A job queue that takes respond-async work before the key check, answers 202, and carries it out with the service's own credentials.
    name: 'a request with Prefer: respond-async answered 202 without the key, and carried out',
    breaks: `${AUTH} A refused create stores nothing.`,
    wrap: (fetch) => async (request, env) => {
      if (hasKey(request) || !/respond-async/i.test(field(request, 'prefer'))) return fetch(request, env);
      await fetch(await withKey(request), env);
      return new Response(null, { status: 202 });
    },
    caughtBy: EVERY,
  },
  {
    // CSRF protection keyed on a cookie's presence rather than on cookie authentication (the interface uses none).
    name: 'a createPet with the key and any Cookie (a browser\'s own) refused 403 for want of a CSRF token',
    breaks: 'Endpoints > Add an animal: 201 with a valid key; a cookie the interface does not name changes nothing (RFC 9110 §5.1).',
    wrap: (fetch) => async (request, env) => (hasKey(request) && operationOf(request) === 'createPet' && request.headers.has('cookie') ? errorResponse(403, 'csrf_failed', 'CSRF token missing') : fetch(request, env)),
    caughtBy: ['vary-create-pet'],
  },
  {
    name: "getPet's 404 to a request without Accept answered 406",
    breaks: ERRORS_JSON,
    // In getPet's handler, after the router has decoded the path (/v1/%70ets/7 too).
    wrap: onErrorWithoutAccept((request, status) => status === 404 && /^\/v1\/pets\/[^/]+$/.test(decodeURIComponent(new URL(request.url).pathname)), () => errorResponse(406, 'not_acceptable', 'name a media type')),
    caughtBy: ['vary-get-pet'],
  },
];
