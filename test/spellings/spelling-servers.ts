import type { HttpBindings } from '@hono/node-server';
import type { ServerFetch } from '../faulty-servers/defect.js';
import { errorResponse, hasKey, operationOf } from '../faulty-servers/http.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { marks, type SpellingServerSpec } from './spelling-server.js';
import { normalPath } from '../../src/shared/uri-normal-form.js';

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
  /** The query the router reads, when it is not the request's. */
  search?: string;
  /** The body the handler is given, when it is not the request's (a multipart body read into JSON). */
  body?: string;
}

/** The request as the router reads it, with the key added: what the mock answers when the key check was passed by. */
export async function letIn(request: Request, routed: Routed = {}): Promise<Request> {
  const url = new URL(request.url);
  if (routed.pathname !== undefined) url.pathname = routed.pathname;
  if (routed.search !== undefined) url.search = routed.search;
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
const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};
/** The id Number() reads in getPet's segment when it is written otherwise than as digits (30.0, +30, 3e1, 0x1e, ' 30'). */
const readAsId = (request: Request): number | undefined => {
  const segment = decoded(/\/pets\/([^/]+)$/.exec(pathOf(request))?.[1] ?? '');
  if (/^[0-9]+$/.test(segment) || segment.trim() === '') return undefined;
  const id = Number(segment);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};
const cookies = (env: HttpBindings): string[] => header(env, 'cookie').split(';').map((pair) => pair.trim());
const KEY_IN_HEADER = `${AUTH} "The API key is sent in the Authorization header": a request without it is missing the key.`;
/** A key check that, Authorization missing, takes the right key from where `found` looks; the router reads the request without the query's key. */
const keyElsewhere = (found: (request: Request, env: HttpBindings) => boolean) =>
  bypassWhen(
    (request, env) => env.incoming.headers.authorization === undefined && found(request, env),
    (request) => {
      const url = new URL(request.url);
      for (const name of ['access_token', 'api_key']) url.searchParams.delete(name);
      return { search: url.search };
    },
  );
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
  // ---- getPet's id, and the method, read past the key check ----
  {
    name: "P1 getPet's id written as another reading of its integer (30.0, +30, 3e1, 0x1e, %2030) routed past the key check",
    spelling: 'P1',
    source: 'a client holding the id as a float (Python f"/pets/{pet_id}" after a float conversion), hand-written curl (+30)',
    behaviour: 'the route that requires the key is /v1/pets/{id:[0-9]+}; a catch-all route without the key forwards to the same backend, whose router reads the id with Number()',
    statement: `${AUTH} Whether such a path is getPet the interface does not say; an animal without the key it never is.`,
    wrap: bypassWhen(
      (request) => request.method === 'GET' && readAsId(request) !== undefined,
      (request) => ({ pathname: pathOf(request).replace(/\/[^/]+$/, `/${readAsId(request) ?? ''}`) }),
    ),
  },
  {
    name: 'M2 OPTIONS with ?_method=POST exempt from the key as a preflight, then routed as the query parameter says',
    spelling: 'M2',
    source: 'HTML forms of Rails, Laravel and Symfony (_method), express method-override with a query getter',
    behaviour: 'the key check lets every OPTIONS by (CORS preflights); the router honours a _method query parameter, body included',
    statement: `${AUTH} A refused create stores nothing.`,
    wrap: bypassWhen(
      (request) => request.method === 'OPTIONS' && new URL(request.url).searchParams.has('_method'),
      (request) => {
        const url = new URL(request.url);
        const method = (url.searchParams.get('_method') ?? 'GET').toUpperCase();
        url.searchParams.delete('_method');
        return { method, search: url.search };
      },
    ),
  },
  // ---- The key outside Authorization ----
  {
    name: 'K1 the key accepted outside Authorization (?access_token=, ?api_key=, X-API-Key, Cookie: api_key=)',
    spelling: 'K1',
    source: 'RFC 6750 §2.3 clients (access_token in the query), generated clients of an apiKey scheme, a browser with a cookie',
    behaviour: 'when Authorization is missing the right key is looked for in the query, X-API-Key and a cookie',
    statement: `${KEY_IN_HEADER} A key in a URL lands in logs; one in a cookie is sent by the browser on another site's behalf (CSRF).`,
    wrap: keyElsewhere((request, env) => {
      const query = new URL(request.url).searchParams;
      return [query.get('access_token'), query.get('api_key'), header(env, 'x-api-key')].includes(FAULTY_SERVER_KEY) || cookies(env).includes(`api_key=${FAULTY_SERVER_KEY}`);
    }),
  },
  {
    name: 'K2 the key accepted as Cookie: api_key=<key> when Authorization is missing',
    spelling: 'K2',
    source: 'a browser whose key is a cookie (sent on another site\'s behalf: CSRF)',
    behaviour: 'when Authorization is missing the right key is taken from the api_key cookie',
    statement: KEY_IN_HEADER,
    wrap: keyElsewhere((_, env) => cookies(env).includes(`api_key=${FAULTY_SERVER_KEY}`)),
  },
  {
    name: 'K3 the key accepted as X-API-Key: <key> when Authorization is missing',
    spelling: 'K3',
    source: 'generated clients of an apiKey-in-header scheme',
    behaviour: 'when Authorization is missing the right key is taken from X-API-Key',
    statement: KEY_IN_HEADER,
    wrap: keyElsewhere((_, env) => header(env, 'x-api-key') === FAULTY_SERVER_KEY),
  },
];

/** A route-first router (`/pets/{id:-?[0-9]+}`): getPet's segment that is no such integer answered `status` whoever asks. */
function refuseIdReadings(status: number, code: string): (fetch: ServerFetch) => ServerFetch {
  return (fetch) => (request, env) => {
    // The route matches the path as RFC 3986 names it (`/%761/pets/…` is `/v1/pets/…`): two spellings of one URI get one answer.
    const segment = /^\/v1\/pets\/([^/]+)$/.exec(normalPath(pathOf(request)))?.[1];
    // int64: a sign is the route's too.
    return request.method === 'GET' && segment !== undefined && !/^-?[0-9]+$/.test(decoded(segment)) ? errorResponse(status, code, 'no such route') : fetch(request, env);
  };
}

// The strict firewall (400 to a path not normalized) and the front end refusing chunked bodies (411) are test/servers/variation-choices.ts.
export const CORRECT: SpellingServerSpec[] = [
  {
    name: 'C3 a strict front end refuses override fields with 400, routes first (404 to /v1/pets/), refuses undocumented parameters',
    spelling: 'M1 F15 U6 U18',
    source: 'a WAF rule set, a route-first framework',
    behaviour: '400 to X-HTTP-Method-Override / X-Original-URL / X-Rewrite-URL / a _method query parameter, with or without the key; 404 Error to an empty last segment with or without the key; 400 to a query parameter listPets does not document (after the key check)',
    statement: 'Each refusal is one docs/harness-variations.md lists as open to a server, or a 4xx to a field the interface does not name.',
    wrap: (fetch) => (request, env) => {
      if (['x-http-method-override', 'x-original-url', 'x-rewrite-url'].some((name) => request.headers.has(name)) || new URL(request.url).searchParams.has('_method')) return errorResponse(400, 'bad_request', 'overrides are not accepted');
      if (/\/$/.test(pathOf(request)) && pathOf(request) !== '/') return errorResponse(404, 'not_found', 'no such path');
      if (hasKey(request) && operationOf(request) === 'listPets') {
        const unknown = [...new URL(request.url).searchParams.keys()].filter((name) => name !== 'limit' && name !== 'status');
        if (unknown.length > 0) return errorResponse(400, 'unknown_parameter', `unknown query parameter ${unknown[0]}`);
      }
      return fetch(request, env);
    },
  },
  {
    name: "C4 a route-first router refuses getPet's id written otherwise than as digits (30.0, +30, 0x1e) with 400, before the key check",
    spelling: 'P1',
    source: 'a router whose route is /pets/{id:[0-9]+} and which answers a segment it does not match with 400',
    behaviour: '400 Error to /v1/pets/<not digits>, with or without the key',
    statement: 'Such a path may name no operation (the interface does not say how an integer is written in a path): a refusal before the key lets nothing in.',
    wrap: refuseIdReadings(400, 'bad_request'),
  },
  {
    name: "C5 a route-first router answers getPet's id written otherwise than as digits with 404, before the key check",
    spelling: 'P1',
    source: 'a router whose route is /pets/{id:[0-9]+}: any other segment matches no route',
    behaviour: '404 Error to /v1/pets/<not digits>, with or without the key',
    statement: 'As C4: no route, no operation, nothing let in.',
    wrap: refuseIdReadings(404, 'not_found'),
  },
  {
    name: "C6 getPet's id read with Number() after the key check (30.0, +30, 3e1, 0x1e are animal 30 with the key, 401 without)",
    spelling: 'P1',
    source: 'a backend reading path parameters with Number(), behind a key check on every path',
    behaviour: 'with the key, a segment Number() reads as a positive integer is that id; without it, 401 as for any path',
    statement: 'Reading such a form as the id is defensible (the interface says petId is an integer, not how it is written); the key is still asked for.',
    wrap: (fetch) => async (request, env) => {
      const id = readAsId(request);
      if (!hasKey(request) || id === undefined) return fetch(request, env);
      const url = new URL(request.url);
      url.pathname = pathOf(request).replace(/\/[^/]+$/, `/${id}`);
      return fetch(new Request(url, { method: request.method, headers: request.headers }), env);
    },
  },
  {
    name: 'C7 a front end answers OPTIONS with a _method query parameter 405, before the key check',
    spelling: 'M2',
    source: 'a front end that takes an OPTIONS asking for another method for a misuse',
    behaviour: '405 Error with Allow to OPTIONS carrying _method, with or without the key',
    statement: 'The interface names no override: refusing one lets nothing in (RFC 9110 §15.5.6: 405 with Allow).',
    wrap: (fetch) => (request, env) => {
      if (request.method !== 'OPTIONS' || !new URL(request.url).searchParams.has('_method')) return fetch(request, env);
      const refused = errorResponse(405, 'method_not_allowed', 'no method override');
      refused.headers.set('allow', 'GET, HEAD, OPTIONS, POST');
      return refused;
    },
  },
];

export const ALL: SpellingServerSpec[] = [...FAULTY, ...CORRECT];
