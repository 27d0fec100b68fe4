import type { Defect } from './defect.js';
import { errorResponse, hasKey } from './http.js';
import { AUTH, letsInWhen, type Wire } from './variation-key-defects.js';

/**
 * Servers that read one spelling of a URI (RFC 3986) otherwise than the
 * plain one: for each production a request of the interface uses (a path
 * segment's characters, their percent-encoding, a dot segment, the empty
 * last segment, the query), one answers it otherwise, refuses it, or lets
 * it in without the key. The router under them is the mock's, which reads
 * every equivalent spelling alike; each reads the target as it came over
 * the wire (node's `incoming.url`), as a key check in front of a router does.
 */

const EVERY = ['vary-list-pets', 'vary-create-pet', 'vary-get-pet'];
const SAME_URI = 'Endpoints: GET /pets, POST /pets, GET /pets/{petId}; a URI spelled with a percent-encoded unreserved character, either case of hex digits, or dot segments is the same URI (RFC 3986 §2.3, §6.2.2.1, §5.2.4).';

/** The path of the request target as sent, before any decoding or dot-segment removal. */
const rawPath = (wire: Wire) => (wire.url ?? '').replace(/\?.*$/, '');
const DOT_SEGMENT = /\/\.{1,2}(\/|$)/;

export const variationUriDefects: Defect[] = [
  {
    // The key check's list of guarded paths is matched on the raw target; the router decodes %70 to p.
    name: 'a path with a percent-encoded character (/v1/%70ets) let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((_, wire) => rawPath(wire).includes('%')),
    caughtBy: EVERY,
  },
  {
    // The same, for a path the router normalizes: /v1/x/../pets is not on the key check's list.
    name: 'a path with dot segments (/v1/x/../pets, /v1/./pets) let in without the key',
    breaks: AUTH,
    wrap: letsInWhen((_, wire) => DOT_SEGMENT.test(rawPath(wire))),
    caughtBy: EVERY,
  },
  {
    // A router that ignores a trailing slash behind a key check that matches exact paths.
    name: 'an empty last segment (/v1/pets/) answered as /v1/pets, without the key too',
    breaks: AUTH,
    wrap: (fetch) => async (request, env) => {
      const url = new URL(request.url);
      const path = decodeURIComponent(url.pathname);
      if (!/\/pets\/$/.test(path)) return fetch(request, env);
      url.pathname = path.slice(0, -1);
      const headers = new Headers(request.headers);
      headers.set('authorization', hasKey(request) ? (request.headers.get('authorization') as string) : 'Bearer faulty-server-key');
      return fetch(new Request(url, { method: request.method, headers, body: request.method === 'POST' ? await request.text() : undefined }), env);
    },
    caughtBy: ['vary-list-pets', 'vary-create-pet'],
  },
  {
    // A hand-written decoder that knows only upper-case hex digits.
    name: 'percent-encoding with lower-case hex digits (%6c) refused with 400',
    breaks: SAME_URI,
    wrap: (fetch) => (request, env) => (hasKey(request) && /%[0-9a-f]?[a-f]/.test(env.incoming.url ?? '') ? errorResponse(400, 'invalid_uri', 'bad percent-encoding') : fetch(request, env)),
    caughtBy: ['vary-list-pets'],
  },
  {
    // A router that matches the raw target, dot segments and all.
    name: 'a path with dot segments answered 404 with the key',
    breaks: SAME_URI,
    wrap: (fetch) => (request, env) => (hasKey(request) && DOT_SEGMENT.test(rawPath(env.incoming)) ? errorResponse(404, 'not_found', 'no such path') : fetch(request, env)),
    caughtBy: EVERY,
  },
];
