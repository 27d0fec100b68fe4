import { gzipSync } from 'node:zlib';
import type { HttpBindings } from '@hono/node-server';
import type { ServerFetch } from '../faulty-servers/defect.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';
import { errorResponse, hasKey, operationOf } from '../faulty-servers/http.js';
import { AUTH, bypassWhen, header } from './spelling-servers.js';
import { marks, type SpellingServerSpec } from './spelling-server.js';

/**
 * Servers chosen by a rule written before reading how the harness makes
 * its variations: the spelled request means the same as the plain one
 * under a normative text (RFC 9110, 9112, 3986, 8259, 6265, 7239, Fetch);
 * a browser, a generated client, curl or a proxy (nginx, Envoy, HAProxy,
 * Cloudflare, AWS ALB) writes it; the fault is one real servers have (an
 * auth layer and a router that normalise differently, a proxy's or a
 * browser's field taken for proof of the caller); and no server of
 * keyless-servers.ts or spelling-servers.ts has it already. Each is the
 * real mock behind one wrapper that reads ONE spelling of a request
 * otherwise than the plain request:
 *
 * - `bypass`: that spelling sent without the key is let in (the mock's keyed answer);
 * - `differs`: that spelling sent with the key gets another status than the plain request.
 *
 * Every request not written that way gets the mock's own answer.
 */

export interface EdgeSpellingServer extends SpellingServerSpec {
  id: string;
  kind: 'bypass' | 'differs' | 'correct';
  /** Why a real system does this (one line). */
  why: string;
  /** A curl line of the spelled request, as the report would print it. */
  spelled?: RegExp;
}

const LOOPBACK_OR_PRIVATE = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|0:0:0:0:0:0:0:1$|localhost$|fc|fd)/i;

/** The field lines of `name` as they came over the wire. */
const rawLines = (env: HttpBindings, name: string): string[] => {
  const raw = env.incoming.rawHeaders;
  const lines: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) lines.push(raw[i + 1] as string);
  return lines;
};
const present = (env: HttpBindings, name: string): boolean => env.incoming.headers[name] !== undefined;
const rawTarget = (env: HttpBindings): string => marks(env).spelledRawUrl ?? env.incoming.url ?? '';

/** RFC 7239 node names of every `for=` in Forwarded, unquoted, brackets and port removed. */
const forwardedFor = (value: string): string[] =>
  value
    .split(/[,;]/)
    .map((pair) => pair.trim())
    .filter((pair) => /^for=/i.test(pair))
    .map((pair) => pair.slice(4).trim().replace(/^"|"$/g, ''))
    .map((node) => (node.startsWith('[') ? node.slice(1, node.indexOf(']')) : node.replace(/:\d+$/, '')));

/** The key check let by, the body read through (framing fields dropped): what a route registered before the key middleware hands the handler. */
const letInBody =
  (when: (request: Request, env: HttpBindings) => boolean) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) => {
    if (!when(request, env)) return fetch(request, env);
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${FAULTY_SERVER_KEY}`);
    headers.delete('transfer-encoding');
    headers.delete('content-length');
    headers.delete('expect');
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
    return fetch(new Request(request.url, { method: request.method, headers, body }), env);
  };

/** Answers `respond()` to a request with the key for which `when` holds; every other request the mock's answer. */
const keyedDiffers =
  (when: (request: Request, env: HttpBindings) => boolean | Promise<boolean>, respond: () => Response) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    hasKey(request) && (await when(request, env)) ? respond() : fetch(request, env);

const isApi = (request: Request) => operationOf(request) !== undefined;
const queryPieces = (env: HttpBindings) =>
  rawTarget(env)
    .replace(/^[^?]*\??/, '')
    .split('&')
    .filter((p) => p !== '')
    .map((p) => [p.split('=')[0] ?? '', p.slice((p.split('=')[0] ?? '').length + 1)] as const);

const decodedName = (name: string): string => {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
};

export const EDGE_FAULTY: EdgeSpellingServer[] = [
  // ---------------- bypasses ----------------
  {
    id: 'E1',
    kind: 'bypass',
    name: 'E1 HEAD let by a key check written for GET and POST, served as GET (status and fields of the animal or the list)',
    spelling: 'HEAD for GET (RFC 9110 §9.3.2)',
    source: 'curl -I, link checkers, caches revalidating, okhttp/requests .head()',
    behaviour: 'key middleware `if method in (GET, POST) require key`; the framework answers HEAD with its GET route',
    statement: `${AUTH} HEAD is GET without content: same authorization.`,
    why: 'Express/Flask/Hono route HEAD to the GET handler automatically, while a hand-written auth middleware lists the methods it guards.',
    spelled: /(^| )(-I|--head|-X HEAD)( |$)/,
    wrap: bypassWhen((request) => request.method === 'HEAD' && !hasKey(request)),
  },
  {
    id: 'E2',
    kind: 'bypass',
    name: 'E2 absolute-form with an upper-case scheme (GET HTTP://host/v1/pets) not recognised by the key check, lower-cased by the front end',
    spelling: 'request-target absolute-form, scheme in upper case (RFC 9112 §3.2.2, RFC 3986 §3.1/§6.2.2.1)',
    source: 'forward proxies and clients configured with a proxy; hand-written curl --request-target',
    behaviour: 'the key check guards targets starting with "/v1/" or "http://…/v1/" (case-sensitive); the front end lower-cases scheme and host as RFC 3986 says, and routes it',
    statement: `${AUTH} RFC 3986 §3.1: schemes are case-insensitive.`,
    why: 'Gateways match protected prefixes on the raw request-target with string compares while the URL parser under them normalises case.',
    spelled: /HTTPS?:\/\//,
    front: (incoming) => {
      const url = incoming.url ?? '';
      const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(url);
      if (m && /^https?$/i.test(m[1] as string) && url !== url.replace(m[0], `${(m[1] as string).toLowerCase()}://${(m[2] as string).toLowerCase()}`)) {
        (incoming as unknown as { spelledRawUrl: string }).spelledRawUrl = url;
        incoming.url = url.replace(m[0], `${(m[1] as string).toLowerCase()}://${(m[2] as string).toLowerCase()}`);
      }
    },
    wrap: bypassWhen((request, env) => !hasKey(request) && marks(env).spelledRawUrl !== undefined),
  },
  {
    id: 'E3',
    kind: 'bypass',
    name: 'E3 percent-encoded dot segments (/v1/x/%2e%2e/pets, /v1/%2E/pets) pass a key check that removes dot segments before decoding',
    spelling: 'dot segments spelled %2e (RFC 3986 §2.3, §5.2.4, §6.2.2.2; WHATWG URL)',
    source: 'hand-written curl --path-as-is, scanners; browsers and the WHATWG URL parser read %2e as "."',
    behaviour: 'the key check normalises literal "." and ".." then matches /v1/pets on the still-encoded path; the router (WHATWG URL) reads %2e as "."',
    statement: `${AUTH} RFC 3986 §6.2.2.2: %2E is ".", so the path is /v1/pets.`,
    why: 'Normalise-then-decode order bugs in path-based auth filters (Spring Security, Envoy RBAC before normalize_path) are a known CVE class.',
    spelled: /%2[eE]/,
    wrap: bypassWhen((request, env) => !hasKey(request) && isApi(request) && /%2e/i.test(rawTarget(env).split('?')[0] ?? '')),
  },
  {
    id: 'E4',
    kind: 'bypass',
    name: 'E4 X-Real-IP loopback or private taken for an internal caller: no key asked',
    spelling: 'X-Real-IP (nginx proxy_set_header X-Real-IP $remote_addr)',
    source: 'nginx, Kong, Traefik in front of the service; any client can send it',
    behaviour: 'internal callers (X-Real-IP loopback/private) need no key',
    statement: `${AUTH} The field is set by whoever sends the request.`,
    why: 'Services behind nginx allow-list "internal" callers by X-Real-IP and forget the edge does not strip a client-supplied one.',
    spelled: /-H '[Xx]-[Rr]eal-[Ii][Pp]: /,
    wrap: bypassWhen((request, env) => !hasKey(request) && LOOPBACK_OR_PRIVATE.test(header(env, 'x-real-ip').trim())),
  },
  {
    id: 'E5',
    kind: 'bypass',
    name: 'E5 RFC 7239 Forwarded: for=<loopback/private> (incl. quoted "[::1]:port") taken for an internal caller',
    spelling: 'Forwarded: for= (RFC 7239 §4, §6)',
    source: 'Envoy (use_remote_address off), HAProxy option forwarded, nginx $proxy_add_forwarded, Spring ForwardedHeaderFilter readers',
    behaviour: 'any for= node in Forwarded that is loopback/private marks the caller internal, no key asked',
    statement: `${AUTH} RFC 7239 §8.1: the field may be set by the client.`,
    why: 'Spring/Express "trust proxy" setups read Forwarded to find the client address and then apply an internal-network allow-list.',
    spelled: /-H '[Ff]orwarded: /,
    wrap: bypassWhen((request, env) => !hasKey(request) && forwardedFor(header(env, 'forwarded')).some((n) => LOOPBACK_OR_PRIVATE.test(n))),
  },
  {
    id: 'E6',
    kind: 'bypass',
    name: 'E6 x-envoy-internal: true taken as a mesh-internal call that needs no key',
    spelling: 'x-envoy-internal (Envoy, set when the downstream address is internal)',
    source: 'Envoy / Istio sidecars; Envoy sets it for a loopback client like the harness',
    behaviour: 'a request marked internal by Envoy skips the key check',
    statement: AUTH,
    why: 'Mesh services skip auth for "internal" traffic using Envoy\'s header, which a client can send when the edge does not sanitise it.',
    spelled: /-H '[Xx]-[Ee]nvoy-[Ii]nternal: /,
    wrap: bypassWhen((request, env) => !hasKey(request) && header(env, 'x-envoy-internal').trim().toLowerCase() === 'true'),
  },
  {
    id: 'E7',
    kind: 'bypass',
    name: 'E7 a Cloudflare Access identity (Cf-Access-Authenticated-User-Email or Cf-Access-Jwt-Assertion) taken instead of the key, unverified',
    spelling: 'Cf-Access-* fields (Cloudflare Access)',
    source: 'Cloudflare in front of the origin with Access enabled',
    behaviour: 'a request carrying an Access identity is treated as authenticated by the edge; the JWT is not verified',
    statement: AUTH,
    why: 'Origins behind Cloudflare Access trust its identity fields and are also reachable directly (or through a path Access does not cover).',
    spelled: /-H '[Cc][Ff]-[Aa]ccess-/,
    wrap: bypassWhen((request, env) => !hasKey(request) && (present(env, 'cf-access-authenticated-user-email') || present(env, 'cf-access-jwt-assertion'))),
  },
  {
    id: 'E8',
    kind: 'bypass',
    name: 'E8 Sec-Fetch-Site other than cross-site (same-origin, same-site, none) taken for the own web console, no key asked',
    spelling: 'Sec-Fetch-Site (Fetch Metadata)',
    source: 'every Chromium/Firefox/Safari request from a page of the same origin, or a typed URL (none)',
    behaviour: 'requests the browser marks same-origin/same-site/none are taken for the console, authenticated by its session, and skip the key',
    statement: `${AUTH} Fetch Metadata fields are sent by any client that writes them (curl -H).`,
    why: 'Fetch-Metadata "resource isolation" middlewares are misused as an allow-list for the first-party UI.',
    spelled: /-H '[Ss]ec-[Ff]etch-[Ss]ite: /,
    wrap: bypassWhen((request, env) => !hasKey(request) && ['same-origin', 'same-site', 'none'].includes(header(env, 'sec-fetch-site').trim().toLowerCase())),
  },
  {
    id: 'E9',
    kind: 'bypass',
    name: 'E9 a chunked createPet (Transfer-Encoding: chunked, no Content-Length) handled by a streaming route registered before the key check: stored without the key',
    spelling: 'chunked request body (RFC 9112 §7.1)',
    source: 'curl -H "Transfer-Encoding: chunked" / -T -, okhttp with a body of unknown length, Node fetch with a stream, Python requests with a generator',
    behaviour: 'POST with chunked framing goes to a streaming body route mounted ahead of the key middleware',
    statement: `${AUTH} A refused create stores nothing.`,
    why: 'Streaming/upload routes are often mounted separately (before body-parsing and auth middleware) to avoid buffering.',
    spelled: /[Tt]ransfer-[Ee]ncoding: chunked/,
    wrap: letInBody((request, env) => request.method === 'POST' && !hasKey(request) && /chunked/i.test(header(env, 'transfer-encoding'))),
  },
  {
    id: 'E10',
    kind: 'bypass',
    name: 'E10 any Via field taken for "came through the API gateway, which checked the key"',
    spelling: 'Via (RFC 9110 §7.6.3)',
    source: 'every HTTP/1.1 proxy (Squid, Varnish, Apache, Envoy with via option, Cloudflare, CloudFront "1.1 xxx.cloudfront.net")',
    behaviour: 'a request with Via is taken as forwarded by the gateway and not asked for the key',
    statement: `${AUTH} RFC 9110 §7.6.3: Via is written by any intermediary, not proof of one.`,
    why: 'Back ends that trust "the gateway already authenticated" detect the gateway by a forwarding field instead of mTLS/network isolation.',
    spelled: /-H '[Vv]ia: /,
    wrap: bypassWhen((request, env) => !hasKey(request) && present(env, 'via')),
  },
  // ---------------- keyed equivalent spellings answered otherwise ----------------
  {
    id: 'E11',
    kind: 'differs',
    name: 'E11 Authorization with more than one space after Bearer ("Bearer  <key>") read as an empty token: 401 with the right key',
    spelling: 'credentials = auth-scheme 1*SP token68 (RFC 9110 §11.4)',
    source: 'hand-written curl / shell templates ("Bearer  $KEY"), config files with padded values',
    behaviour: 'the token is `value.split(" ")[1]`, empty when two spaces follow the scheme',
    statement: `${AUTH} The key is valid; RFC 9110 §11.4 allows 1*SP.`,
    why: 'split(" ")[1] is the most common hand-written bearer parser.',
    spelled: /[Bb][Ee][Aa][Rr][Ee][Rr] {2,}/,
    wrap: (fetch) => (request, env) => (rawLines(env, 'authorization').some((v) => /^bearer {2,}/i.test(v)) ? errorResponse(401, 'unauthorized', 'Missing or invalid API key.') : fetch(request, env)),
  },
  {
    id: 'E12',
    kind: 'differs',
    name: 'E12 createPet Content-Type other than exactly "application/json" or "application/json; charset=utf-8" (Spring\'s "application/json;charset=UTF-8", quoted charset, upper-case type) refused 415',
    spelling: 'media-type parameters and case (RFC 9110 §8.3.1, §5.6.6)',
    source: 'Spring RestTemplate/WebClient (application/json;charset=UTF-8), okhttp (application/json; charset=utf-8), .NET, hand-written curl',
    behaviour: 'a string compare against two spellings of the media type',
    statement: 'Add an animal: request body application/json; RFC 9110 §8.3.1: type, subtype and charset value are case-insensitive, parameters may be quoted, OWS around ";".',
    why: 'String equality on Content-Type instead of parsing the media type is widespread.',
    spelled: /-H '[Cc]ontent-[Tt]ype: (?!application\/json'|application\/json; charset=utf-8')[^']*'/,
    wrap: keyedDiffers(
      (request) => operationOf(request) === 'createPet' && !['application/json', 'application/json; charset=utf-8'].includes(request.headers.get('content-type') ?? ''),
      () => errorResponse(415, 'unsupported_media_type', 'Content-Type must be application/json'),
    ),
  },
  {
    id: 'E13',
    kind: 'differs',
    name: 'E13 Accept that accepts JSON without naming it literally (*/*;q=0.8, application/*, a browser\'s navigation Accept, APPLICATION/JSON) answered 406',
    spelling: 'Accept media ranges, wildcards, q, case (RFC 9110 §12.5.1)',
    source: 'browsers (text/html,…,*/*;q=0.8), Java HttpURLConnection (…, */*; q=.2), Python requests/curl (*/*), hand-written',
    behaviour: 'negotiation is `accept.includes("application/json") || accept === "*/*"`',
    statement: 'Requests and responses use application/json; RFC 9110 §12.5.1: */* and application/* accept it, media types are case-insensitive.',
    why: 'Substring checks on Accept are the usual hand-written negotiation.',
    spelled: /-H '[Aa]ccept: (?![^']*application\/json)[^']+'/,
    wrap: keyedDiffers(
      (request, env) => {
        if (!isApi(request) || !present(env, 'accept')) return false;
        const accept = header(env, 'accept');
        return !(accept.includes('application/json') || accept.trim() === '*/*');
      },
      () => errorResponse(406, 'not_acceptable', 'only application/json is served'),
    ),
  },
  {
    id: 'E14',
    kind: 'differs',
    name: 'E14 a request without Accept answered 406',
    spelling: 'no Accept field (RFC 9110 §12.5.1: any media type is acceptable)',
    source: 'Node http.request, Go net/http, okhttp without an interceptor, Java HttpClient, curl -H "Accept:"',
    behaviour: 'negotiation requires an Accept naming application/json',
    statement: 'RFC 9110 §12.5.1: "A request without any Accept header field implies that the user agent will accept any media type".',
    why: 'Frameworks configured with "produces = application/json" and strict negotiation reject a missing Accept.',
    spelled: /-H '[Aa]ccept:'/,
    wrap: keyedDiffers(
      (request, env) => isApi(request) && !present(env, 'accept'),
      () => errorResponse(406, 'not_acceptable', 'an Accept field naming application/json is required'),
    ),
  },
  {
    id: 'E15',
    kind: 'differs',
    name: 'E15 an HTTP/1.0 request answered 505 HTTP Version Not Supported',
    spelling: 'HTTP-version 1.0 (RFC 9112 §2.3; RFC 9110 §6.2)',
    source: 'nginx proxy_pass (default proxy_http_version 1.0), ab, curl --http1.0, old HAProxy health checks',
    behaviour: 'the server answers 505 to any minor version other than 1.1',
    statement: 'RFC 9110 §15.6.6: 505 is for an unsupported major version; an HTTP/1.1 server answers 1.0 requests.',
    why: 'Servers written against "HTTP/1.1" only reject 1.0 and break behind nginx with its default upstream version.',
    spelled: /( -0( |$)|--http1\.0)/,
    wrap: keyedDiffers(
      (_request, env) => env.incoming.httpVersion === '1.0',
      () => errorResponse(505, 'http_version_not_supported', 'HTTP/1.1 is required'),
    ),
  },
  {
    id: 'E16',
    kind: 'differs',
    name: 'E16 a keyed createPet carrying a Cookie answered 403 (CSRF protection for "browser sessions")',
    spelling: 'Cookie with unrelated cookies (RFC 6265 §5.4), as a browser adds',
    source: 'browsers with credentials: "include" / same-origin fetch, axios withCredentials, requests.Session with cookies from another site',
    behaviour: 'a POST with any Cookie is treated as a browser-session request and refused without a CSRF token, even with a valid key',
    statement: 'Add an animal: 201 with a valid key; the interface uses no cookie, so an unrelated one changes nothing.',
    why: 'Django/Rails-style CSRF middleware keyed on cookie presence instead of on cookie authentication.',
    spelled: /-H '[Cc]ookie: /,
    wrap: keyedDiffers(
      (request, env) => request.method === 'POST' && present(env, 'cookie'),
      () => errorResponse(403, 'csrf_failed', 'CSRF token missing'),
    ),
  },
  {
    id: 'E17',
    kind: 'differs',
    name: 'E17 a createPet JSON text with whitespace before or after the object (a trailing newline) refused 400 malformed_json',
    spelling: 'JSON-text = ws value ws (RFC 8259 §2)',
    source: 'curl --data-binary @pet.json (editors end files with a newline), jq output, Python json.dump(f) + "\\n", pretty-printers',
    behaviour: 'the body is sniffed as JSON only when its first byte is "{" and its last "}"',
    statement: 'Add an animal: a well-formed NewPet gets 201; RFC 8259 §2: whitespace around the value is insignificant.',
    why: 'Hand-written "is it JSON?" sniffers compare the first/last byte.',
    spelled: /(\\n|\\r|\\t|--data[-a-z]* \$?'\s|\s'( |$))/,
    wrap: keyedDiffers(
      async (request) => {
        if (operationOf(request) !== 'createPet') return false;
        const body = await request.clone().text();
        return body !== '' && !(body.startsWith('{') && body.endsWith('}'));
      },
      () => errorResponse(400, 'malformed_json', 'The body is not well-formed JSON.'),
    ),
  },
  {
    id: 'E18',
    kind: 'differs',
    name: 'E18 User-Agent python-requests/… (or okhttp/…) refused 403 by a bot rule, with the key',
    spelling: 'User-Agent of a generated/library client (RFC 9110 §10.1.5)',
    source: 'Python requests, okhttp (openapi-generator java/kotlin clients)',
    behaviour: 'a WAF/bot rule blocks library user agents before the app',
    statement: 'Every operation is answered by the key, not by the client library.',
    why: 'Cloudflare/AWS WAF managed bot rules and nginx "map $http_user_agent" block python-requests and okhttp by default.',
    spelled: /-H '[Uu]ser-[Aa]gent: (python-requests|okhttp)/i,
    wrap: keyedDiffers(
      (_request, env) => /^(python-requests|okhttp)\//i.test(header(env, 'user-agent')),
      () => errorResponse(403, 'forbidden', 'automated clients are not allowed'),
    ),
  },
  {
    id: 'E19',
    kind: 'differs',
    name: 'E19 a percent-encoded octet in a listPets query value (status=%61vailable, limit=%35) read raw: 400 invalid value',
    spelling: 'percent-encoded unreserved characters in query values (RFC 3986 §2.3, §6.2.2.2)',
    source: 'hand-written curl, clients that encode every non-alphanumeric or every character (some Java/Go encoders, scanners)',
    behaviour: 'a hand-written query parser splits on & and =, decodes the names to match them, and validates the raw value',
    statement: 'List animals: status and limit; RFC 3986 §2.3: %61 is "a", %35 is "5".',
    why: 'Hand-rolled query splitting that forgets to decode values.',
    spelled: /\?([^' ]*&)?[^'&= ]+=[^&' ]*%[0-9A-Fa-f]{2}/,
    wrap: keyedDiffers(
      (request, env) => operationOf(request) === 'listPets' && queryPieces(env).some(([name, value]) => ['limit', 'status'].includes(decodedName(name)) && value.includes('%')),
      () => errorResponse(400, 'invalid_parameter', 'invalid query parameter'),
    ),
  },
];

export const EDGE_CORRECT: EdgeSpellingServer[] = [
  {
    id: 'EC1',
    kind: 'correct',
    name: 'EC1 CORS on actual responses: Origin echoed in Access-Control-Allow-Origin, Vary: Origin, Location exposed',
    spelling: 'Origin (Fetch standard)',
    source: 'every browser on a cross-origin fetch',
    behaviour: 'to a request with Origin, every answer (401 too) carries Access-Control-Allow-Origin: <origin>, Access-Control-Expose-Headers: Location, Vary: Origin',
    statement: 'The interface says nothing on browsers; adding CORS response fields changes no status or body.',
    why: 'Any API used from a web console answers CORS on actual responses.',
    wrap: (fetch) => async (request, env) => {
      const response = await fetch(request, env);
      const origin = request.headers.get('origin');
      if (!origin) return response;
      const headers = new Headers(response.headers);
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-expose-headers', 'Location');
      headers.append('vary', 'Origin');
      return new Response(response.body, { status: response.status, headers });
    },
  },
  {
    id: 'EC2',
    kind: 'correct',
    name: 'EC2 gzip content coding when Accept-Encoding allows it (Content-Encoding: gzip, Vary: Accept-Encoding)',
    spelling: 'Accept-Encoding (RFC 9110 §12.5.3, §8.4)',
    source: 'browsers, okhttp (adds gzip itself), Python requests (gzip, deflate), curl --compressed',
    behaviour: 'a JSON body of an answer to a request accepting gzip is sent gzip-coded; otherwise identity',
    statement: 'RFC 9110 §8.4: a content coding is no change of the representation\'s data; the interface fixes the media type, not the coding.',
    why: 'nginx gzip on / compression middleware is on by default in many stacks.',
    wrap: (fetch) => async (request, env) => {
      const response = await fetch(request, env);
      const accepts = header(env, 'accept-encoding')
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .some((c) => (c === 'gzip' || c.startsWith('gzip;')) && !/;\s*q=0(\.0*)?$/.test(c));
      if (!accepts || response.status === 206 || response.status === 304 || response.headers.has('content-encoding') || !/json/i.test(response.headers.get('content-type') ?? '')) return response;
      const headers = new Headers(response.headers);
      headers.set('content-encoding', 'gzip');
      headers.append('vary', 'Accept-Encoding');
      headers.delete('content-length');
      // Another representation: a strong validator is weakened, as nginx's gzip does (RFC 9110 §8.8.3).
      const etag = headers.get('etag');
      if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
      // HEAD: the fields its GET would have (RFC 9110 §9.3.2).
      if (request.method === 'HEAD') return new Response(null, { status: response.status, headers });
      return new Response(gzipSync(new Uint8Array(await response.arrayBuffer())), { status: response.status, headers });
    },
  },
];

export const EDGE_ALL: EdgeSpellingServer[] = [...EDGE_FAULTY, ...EDGE_CORRECT];
