import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey } from './http.js';
import { AUTH, letsInWhen } from './variation-key-defects.js';

/**
 * Servers that read one request field (RFC 9110) otherwise than the plain
 * request's: for a field the interface relies on left out (Accept on an
 * error answer), and for the fields proxies add, which a client can send as
 * well (src/contract-tests/generate/proxy-fields.ts), one answers otherwise,
 * refuses, or lets the request in without the key.
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const CLIENT_SET = 'Endpoints: each operation answers as it states, whoever forwarded the request: "The Forwarded HTTP header field cannot be relied upon to be correct, as it may be modified ... by every node on the way to the server, including the client making the request" (RFC 7239 §8.1); so are X-Forwarded-*.';
const ERRORS_JSON = 'Errors: every error response has the Error body (401 for a missing key, 404 for an unknown id); a request without Accept accepts any media type (RFC 9110 §12.5.1).';

const field = (request: Request, name: string) => request.headers.get(name) ?? '';
const LOOPBACK = /(^|[\s,"=[])(127\.\d+\.\d+\.\d+|::1)\b/;

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
    // The error handler negotiates a media type and fails when the client named none.
    name: 'an error answer (401, 404) to a request without Accept becomes a 500',
    breaks: ERRORS_JSON,
    wrap: onErrorWithoutAccept(() => true, () => errorResponse(500, 'internal_error', 'no media type to answer in')),
    caughtBy: EVERY,
  },
  {
    name: "getPet's 404 to a request without Accept answered 406",
    breaks: ERRORS_JSON,
    // In getPet's handler, after the router has decoded the path (/v1/%70ets/7 too).
    wrap: onErrorWithoutAccept((request, status) => status === 404 && /^\/v1\/pets\/[^/]+$/.test(decodeURIComponent(new URL(request.url).pathname)), () => errorResponse(406, 'not_acceptable', 'name a media type')),
    caughtBy: ['vary-get-pet'],
  },
];
