import type { HttpBindings } from '@hono/node-server';
import type { ServerFetch } from '../faulty-servers/defect.js';
import { errorResponse, hasKey, operationOf } from '../faulty-servers/http.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { marks, type SpellingServerSpec } from './spelling-server.js';

/**
 * Servers written from the spellings clients, proxies and curl produce
 * (docs/harness-variations.md), beside test/faulty-servers/. Each faulty one
 * is the real mock behind a key check that reads one spelling of a request
 * otherwise than the router under it: a request written that way is let in
 * without the key (or with a wrong one), with the mock's own answer. Every
 * request as the harness always writes it, with or without the key, gets the
 * mock's answer, so only that spelling sent without the key shows the fault.
 * Each reads the request as it came over the wire (node's `incoming`), as a
 * key check in front of a router does. The correct ones make a defensible
 * other choice for some spellings (a refusal), and must pass.
 */

export const AUTH = 'Authentication: "The requirement applies to every operation described above. When the key is missing or invalid, the service answers 401 with an Error body."';

/** The request target as it came over the wire (before a front hook rewrote it). */
const rawTarget = (env: HttpBindings): string => marks(env).spelledRawUrl ?? env.incoming.url ?? '';
/** A field's value as node joins its lines: the one list they make (RFC 9110 §5.3). */
export const header = (env: HttpBindings, name: string): string => {
  const value = env.incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

interface Routed {
  /** The path the router reads, when it is not the adaptor's. */
  pathname?: string;
  /** The method the router reads, when it is not the request line's. */
  method?: string;
  /** The media type the handler is given, when it is not the request's. */
  contentType?: string;
  /** The body the handler is given, when it is not the request's (a multipart body read into JSON). */
  body?: string;
}

/** The request as the router reads it, with the key added: what the mock answers when the key check was passed by. */
export async function letIn(request: Request, routed: Routed = {}): Promise<Request> {
  const url = new URL(request.url);
  if (routed.pathname !== undefined) url.pathname = routed.pathname;
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${FAULTY_SERVER_KEY}`);
  if (routed.contentType) headers.set('content-type', routed.contentType);
  headers.delete('x-http-method-override');
  const method = routed.method ?? request.method;
  const body = routed.body ?? (request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text());
  if (routed.body !== undefined) headers.delete('content-length');
  return new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body });
}

/** A key check that is passed by when `when` holds for the request as sent; the router then reads it as `route` says. */
export const bypassWhen =
  (when: (request: Request, env: HttpBindings) => boolean, route: (request: Request, env: HttpBindings) => Routed = () => ({})) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    when(request, env) ? fetch(await letIn(request, route(request, env)), env) : fetch(request, env);

const pathOf = (request: Request): string => new URL(request.url).pathname;
const LOOPBACK_OR_PRIVATE = /^\s*(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|\[::1\]|localhost)/i;

export const FAULTY: SpellingServerSpec[] = [
  // ---- The request target (RFC 3986); the forms the harness sends from the origin are test/faulty-servers/variation-uri-form-defects.ts ----
  {
    name: 'U6 empty last segment on getPet (/v1/pets/30/) answered as /v1/pets/30 without the key',
    spelling: 'U6',
    source: 'generated clients with a template ending in /, hand-written',
    behaviour: 'key check matches /v1/pets/{id} exactly; the router ignores a trailing slash',
    statement: AUTH,
    wrap: bypassWhen(
      (request) => /\/pets\/[^/]+\/$/.test(pathOf(request)),
      (request) => ({ pathname: pathOf(request).slice(0, -1) }),
    ),
  },
  {
    name: 'U15 a percent-encoded query name (%6cimit=5, st%61tus=sold) not recognised: the parameter is ignored',
    spelling: 'U15',
    source: 'curl, hand-written; a client that percent-encodes every character',
    behaviour: 'a hand-written query parser that decodes values but matches names as sent: %6cimit is not limit, so the default page (20) or every status is answered',
    statement: 'List animals: limit, "Maximum number of animals returned"; status, "Returns only animals with this availability status"; RFC 3986 §2.3: %6c is l.',
    wrap: (fetch) => async (request, env) => {
      const query = rawTarget(env).replace(/^[^?]*\??/, '').replace(/#[\s\S]*$/, '');
      if (operationOf(request) !== 'listPets' || !/%/.test(query.split('&').map((piece) => piece.split('=')[0]).join(''))) return fetch(request, env);
      const url = new URL(request.url);
      url.search = query
        .split('&')
        .filter((piece) => piece !== '' && !/%/.test(piece.split('=')[0] ?? ''))
        .join('&');
      return fetch(new Request(url, { method: request.method, headers: request.headers }), env);
    },
  },
  {
    name: 'U15b a percent-encoded limit (%6cimit=5) not recognised: the default page of 20 is answered',
    spelling: 'U15',
    source: 'curl, hand-written; a client that percent-encodes every character',
    behaviour: 'a parser that matches the name limit as sent: %6cimit=5 is ignored, and up to 20 animals come back',
    statement: 'List animals: limit, "Maximum number of animals returned"; RFC 3986 §2.3: %6c is l.',
    wrap: (fetch) => async (request, env) => {
      const query = rawTarget(env).replace(/^[^?]*\??/, '').replace(/#[\s\S]*$/, '');
      const pieces = query.split('&').filter((piece) => piece !== '');
      const spelled = (piece: string) => /%/.test(piece.split('=')[0] ?? '') && decodeURIComponent(piece.split('=')[0] ?? '') === 'limit';
      if (operationOf(request) !== 'listPets' || !pieces.some(spelled)) return fetch(request, env);
      const url = new URL(request.url);
      url.search = pieces.filter((piece) => !spelled(piece)).join('&');
      return fetch(new Request(url, { method: request.method, headers: request.headers }), env);
    },
  },
  // ---- The fields ----
  {
    name: 'F13 X-Forwarded-For: 127.0.0.1 taken as an internal caller and let in without the key (a class the guide says it sends)',
    spelling: 'F13',
    source: 'proxies, and any client (RFC 7239 §8.1)',
    behaviour: 'internal callers (the first X-Forwarded-For hop loopback/private) need no key',
    statement: `${AUTH} RFC 7239 §8.1: such fields may be set by the client itself.`,
    wrap: bypassWhen((_, env) => LOOPBACK_OR_PRIVATE.test(header(env, 'x-forwarded-for').split(',')[0] ?? '')),
  },
];

// The strict firewall (400 to a path not normalized) and the front end refusing chunked bodies (411) are test/servers/variation-choices.ts.
export const CORRECT: SpellingServerSpec[] = [
  {
    name: 'C3 a strict front end refuses override fields with 400, routes first (404 to /v1/pets/), refuses undocumented parameters',
    spelling: 'M1 F15 U6 U18',
    source: 'a WAF rule set, a route-first framework',
    behaviour: '400 to X-HTTP-Method-Override / X-Original-URL / X-Rewrite-URL; 404 Error to an empty last segment with or without the key; 400 to a query parameter listPets does not document (after the key check)',
    statement: 'Each refusal is one docs/harness-variations.md lists as open to a server, or a 4xx to a field the interface does not name.',
    wrap: (fetch) => (request, env) => {
      if (['x-http-method-override', 'x-original-url', 'x-rewrite-url'].some((name) => request.headers.has(name))) return errorResponse(400, 'bad_request', 'override fields are not accepted');
      if (/\/$/.test(pathOf(request)) && pathOf(request) !== '/') return errorResponse(404, 'not_found', 'no such path');
      if (hasKey(request) && operationOf(request) === 'listPets') {
        const unknown = [...new URL(request.url).searchParams.keys()].filter((name) => name !== 'limit' && name !== 'status');
        if (unknown.length > 0) return errorResponse(400, 'unknown_parameter', `unknown query parameter ${unknown[0]}`);
      }
      return fetch(request, env);
    },
  },
];

export const ALL: SpellingServerSpec[] = [...FAULTY, ...CORRECT];
