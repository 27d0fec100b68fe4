import type { HttpBindings } from '@hono/node-server';
import type { ServerFetch } from '../faulty-servers/defect.js';
import { errorResponse, hasKey, operationOf } from '../faulty-servers/http.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { marks, type TrialServerSpec } from './trial-server.js';

/**
 * The servers of the security trial (SECURITY-TRIAL.md §2). Each faulty one
 * is the real mock behind a key check that reads one spelling of a request
 * otherwise than the router under it: a request written that way is let in
 * without the key (or with a wrong one), with the mock's own answer. Every
 * request as the harness always writes it, with or without the key, gets the
 * mock's answer, so only that spelling sent without the key shows the fault.
 * Each reads the request as it came over the wire (node's `incoming`), as a
 * key check in front of a router does. The correct ones make a defensible
 * other choice for some spellings (a refusal), and must pass.
 */

const AUTH = 'Authentication: "The requirement applies to every operation described above. When the key is missing or invalid, the service answers 401 with an Error body."';

/** The request target as it came over the wire (before a front hook rewrote it). */
const rawTarget = (env: HttpBindings): string => marks(env).trialRawUrl ?? env.incoming.url ?? '';
/** Its path: the target without query and fragment (an absolute-form target keeps its scheme and authority). */
const rawPath = (env: HttpBindings): string => rawTarget(env).replace(/[?#][\s\S]*$/, '');
const header = (env: HttpBindings, name: string): string => {
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
}

/** The request as the router reads it, with the key added: what the mock answers when the key check was passed by. */
async function letIn(request: Request, routed: Routed = {}): Promise<Request> {
  const url = new URL(request.url);
  if (routed.pathname !== undefined) url.pathname = routed.pathname;
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${FAULTY_SERVER_KEY}`);
  if (routed.contentType) headers.set('content-type', routed.contentType);
  headers.delete('x-http-method-override');
  const method = routed.method ?? request.method;
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
  return new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body });
}

/** A key check that is passed by when `when` holds for the request as sent; the router then reads it as `route` says. */
const bypassWhen =
  (when: (request: Request, env: HttpBindings) => boolean, route: (request: Request, env: HttpBindings) => Routed = () => ({})) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    when(request, env) ? fetch(await letIn(request, route(request, env)), env) : fetch(request, env);

const pathOf = (request: Request): string => new URL(request.url).pathname;
const LOOPBACK_OR_PRIVATE = /^\s*(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|\[::1\]|localhost)/i;

export const FAULTY: TrialServerSpec[] = [
  // ---- The request target (RFC 3986) ----
  {
    name: 'U1 percent-encoded character in the base segment (/%761/pets) let in without the key',
    spelling: 'U1',
    source: 'curl, hand-written',
    behaviour: 'gateway guards the raw prefix /v1/ (location /v1/ { auth }); the router decodes unreserved characters',
    statement: AUTH,
    wrap: bypassWhen((_, env) => /^\/[^/]*%/.test(rawPath(env))),
  },
  {
    name: 'U3 dot segment before the base segment (/./v1/pets, /x/../v1/pets) let in without the key',
    spelling: 'U3',
    source: 'curl --path-as-is',
    behaviour: 'gateway guards the raw prefix /v1/; the router removes dot segments',
    statement: AUTH,
    wrap: bypassWhen((_, env) => /^\/(\.|[^/.][^/]*\/\.\.)\//.test(rawPath(env))),
  },
  {
    name: 'U4 dot-dot above the root (/../v1/pets) let in without the key',
    spelling: 'U4',
    source: 'curl --path-as-is, hand-written',
    behaviour: 'gateway guards the raw prefix /v1/; the router (WHATWG URL) drops a .. at the root',
    statement: `${AUTH} RFC 3986 §5.2.4: remove_dot_segments("/../v1/pets") is "/v1/pets".`,
    wrap: bypassWhen((_, env) => /^\/\.\.(\/|$)/.test(rawPath(env))),
  },
  {
    name: 'U5 percent-encoded dot segment (/v1/%2e/pets, /v1/x/%2e%2e/pets) let in without the key',
    spelling: 'U5',
    source: 'curl (it does not resolve %2e), hand-written',
    behaviour: 'key check removes literal dot segments only; the router decodes %2e first (CVE-2021-41773 class)',
    statement: `${AUTH} RFC 3986 §2.3, §6.2.2.2 then §6.2.2.3: %2E is ".", and a "." segment is removed.`,
    wrap: bypassWhen((_, env) => /%2e/i.test(rawPath(env))),
  },
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
    name: 'U7 doubled slashes (//v1/pets, /v1//pets) merged by the router and let in without the key',
    spelling: 'U7',
    source: 'openapi-generator clients with a basePath ending in /, hand-written; nginx merge_slashes',
    behaviour: 'key check on the raw path; the router merges slashes (nginx, Spring, Envoy merge_slashes)',
    statement: AUTH,
    wrap: bypassWhen(
      (_, env) => /\/\//.test(rawPath(env).replace(/^https?:\/\//i, '')),
      (request) => ({ pathname: pathOf(request).replace(/\/{2,}/g, '/') }),
    ),
  },
  {
    name: 'U8 path in another case (/V1/PETS) routed case-insensitively and let in without the key',
    spelling: 'U8',
    source: 'hand-written; clients generated from a mis-cased document',
    behaviour: 'key check case-sensitive; the router case-insensitive (Express default, IIS, Spring setCaseSensitive(false))',
    statement: AUTH,
    wrap: bypassWhen(
      (_, env) => /[A-Z]/.test(rawPath(env).replace(/^https?:\/\/[^/]*/i, '').replace(/%[0-9a-fA-F]{2}/g, '')),
      (request) => ({ pathname: pathOf(request).toLowerCase() }),
    ),
  },
  {
    name: 'U9 path parameter (/v1/pets;x=1, /v1/pets/30;jsessionid=a) stripped by the router and let in without the key',
    spelling: 'U9',
    source: 'Java servlet clients (jsessionid), hand-written',
    behaviour: 'key check on the raw path; the router strips ;params (Tomcat, Jetty, Spring)',
    statement: AUTH,
    wrap: bypassWhen(
      (_, env) => rawPath(env).includes(';'),
      (request) => ({ pathname: pathOf(request).replace(/;[^/]*/g, '') }),
    ),
  },
  {
    name: 'U10 encoded slash (/v1/pets%2F30) decoded by the router and let in without the key',
    spelling: 'U10',
    source: 'hand-written; an SDK escaping the path',
    behaviour: 'key check on the raw path; the router decodes %2F before matching (AllowEncodedSlashes, Envoy UNESCAPE_AND_FORWARD)',
    statement: AUTH,
    wrap: bypassWhen(
      (_, env) => /%2f/i.test(rawPath(env)),
      (request) => ({ pathname: pathOf(request).replace(/%2f/gi, '/') }),
    ),
  },
  {
    name: 'U11 backslash (/v1\\pets) read as / by the front end and let in without the key',
    spelling: 'U11',
    source: 'curl, hand-written (browsers send /)',
    behaviour: 'key check on the raw target; the front end reads \\ as / (WHATWG URL, IIS)',
    statement: AUTH,
    front: (incoming) => {
      if (!incoming.url?.includes('\\')) return;
      marks({ incoming } as HttpBindings).trialRawUrl = incoming.url;
      incoming.url = incoming.url.replaceAll('\\', '/');
    },
    wrap: bypassWhen((_, env) => rawTarget(env).includes('\\')),
  },
  {
    name: 'U12 a fragment in the target (/v1/pets#x) let in without the key',
    spelling: 'U12',
    source: 'raw clients (curl and browsers strip it)',
    behaviour: 'key check compares the whole raw target; the router ignores #…',
    statement: AUTH,
    wrap: bypassWhen((_, env) => rawTarget(env).includes('#')),
  },
  {
    name: 'U13 absolute-form target (GET http://host/v1/pets) let in without the key',
    spelling: 'U13',
    source: 'any client told to use the server as its proxy (curl -x, http_proxy)',
    behaviour: 'key check on req.url starting with /v1/; the router parses the absolute URL',
    statement: `${AUTH} RFC 9112 §3.2.2: a server MUST accept the absolute-form.`,
    wrap: bypassWhen((_, env) => /^[a-z][a-z0-9+.-]*:\/\//i.test(env.incoming.url ?? '')),
  },
  {
    name: 'U14 an empty query or empty query pieces (/v1/pets?, ?&limit=5, ?limit=5&) let in without the key',
    spelling: 'U14',
    source: 'clients writing url + "?" + params, or joining pieces with &',
    behaviour: 'key check matches the raw target against a pattern of non-empty pieces; the query parser skips empty ones',
    statement: AUTH,
    wrap: bypassWhen((_, env) => /\?$|\?&|&&|&$/.test(rawTarget(env).replace(/#[\s\S]*$/, ''))),
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

/** Raw-path features Spring Security's StrictHttpFirewall rejects (its defaults): `;`, encoded `/`, `\`, `%`, `.`, and a path that is not normalised. */
const STRICT_FIREWALL = /;|%3b|%2f|%5c|%25|%2e|\\|\/\/|\/\.\.?(\/|$)/i;

export const CORRECT: TrialServerSpec[] = [
  {
    name: 'C1 a strict firewall (Spring Security StrictHttpFirewall defaults) refuses non-normalised paths with 400 before the key check',
    spelling: 'U3 U4 U5 U7 U9 U10 U11',
    source: 'Spring Security (the default HttpFirewall), Jetty 10+ (ambiguous path segments)',
    behaviour: '400 Error, with or without the key, to a raw path holding ;, %2F, %5C, %25, %2E, \\, //, or a . or .. segment; everything else as the mock',
    statement:
      'Refusing a request is always open to a server (the refusal changes nothing and lets nothing in); the only clients that send dot segments are hand-written ones (curl and browsers remove them); 400 before 401 leaks nothing.',
    front: (incoming) => {
      if (!incoming.url?.includes('\\')) return;
      marks({ incoming } as HttpBindings).trialRawUrl = incoming.url;
      incoming.url = incoming.url.replaceAll('\\', '/');
    },
    wrap: (fetch) => (request, env) =>
      STRICT_FIREWALL.test(rawPath(env).replace(/^https?:\/\/[^/]*/i, ''))
        ? errorResponse(400, 'request_rejected', 'The request was rejected because the URL was not normalized.')
        : fetch(request, env),
  },
  {
    name: 'C2 a front end without chunked support asks for the length (411) before the key check',
    spelling: 'H2',
    source: 'nginx before 1.3.9 / chunked_transfer_encoding off, some API gateways and WAFs',
    behaviour: '411 Error to any request with Transfer-Encoding: chunked, with or without the key; everything else as the mock',
    statement: 'docs/harness-variations.md: "411 to a chunked body ... pass[es]" (RFC 9112 §6.3); a front end that refuses the framing never reaches the key check, and lets nothing in.',
    wrap: (fetch) => (request, env) => (/chunked/i.test(header(env, 'transfer-encoding')) ? errorResponse(411, 'length_required', 'send Content-Length') : fetch(request, env)),
  },
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

export const ALL: TrialServerSpec[] = [...FAULTY, ...CORRECT];
