import type { HttpBindings } from '@hono/node-server';
import type { ServerFetch } from '../faulty-servers/defect.js';
import { errorResponse, operationOf } from '../faulty-servers/http.js';
import { AUTH, bypassWhen, header, letIn } from './spelling-servers.js';
import type { SpellingServerSpec } from './spelling-server.js';

/**
 * Servers that answer a request the harness sends beside the operations'
 * own without the key: a browser's CORS preflight, a request carrying a
 * cache directive after a keyed one, a multipart createPet, a method the
 * interface does not name; and one that reads a field sent over two field
 * lines from its first line only. Each is the real mock behind one wrapper,
 * so every request as the harness always writes it gets the mock's answer.
 * The correct ones make another defensible choice and must pass.
 */

/** Every field line of `name` as it came over the wire, in order (node joins them in `headers`). */
const fieldLines = (env: HttpBindings, name: string): string[] => {
  const raw = env.incoming.rawHeaders;
  const lines: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) lines.push(raw[i + 1] as string);
  return lines;
};

/** The comma-separated tokens of a list field, lower-cased. */
const tokens = (value: string): string[] =>
  value
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');

interface Stored {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

/**
 * A shared cache in front of the key check: GET answers 200 stored by the
 * raw target and the fields that change the representation; `perKey` says
 * whether Authorization is part of the cache key (right: RFC 9111 §3.5,
 * §4.1) or ignored. A request that accepts a stale answer (`max-stale`,
 * `only-if-cached`) gets the stored one without the origin being asked;
 * any other goes to the origin.
 */
const sharedCache =
  (perKey: boolean) =>
  (fetch: ServerFetch): ServerFetch => {
    const store = new Map<string, Stored>();
    return async (request, env) => {
      if (request.method !== 'GET') return fetch(request, env);
      const key = [env.incoming.url ?? '', header(env, 'accept'), header(env, 'accept-encoding'), perKey ? header(env, 'authorization') : ''].join('\n');
      const directives = tokens(header(env, 'cache-control')).map((d) => d.replace(/=.*$/, ''));
      const stored = store.get(key);
      if (stored && (directives.includes('max-stale') || directives.includes('only-if-cached'))) {
        const headers = new Headers(stored.headers);
        headers.set('age', '1');
        return new Response(stored.body.slice(0), { status: stored.status, headers });
      }
      const response = await fetch(request, env);
      if (response.status === 200) store.set(key, { status: 200, headers: [...response.headers], body: await response.clone().arrayBuffer() });
      return response;
    };
  };

/** A CORS preflight as Spring's CorsUtils.isPreFlightRequest tells one: OPTIONS with Origin and Access-Control-Request-Method. */
const isPreflight = (request: Request): boolean => request.method === 'OPTIONS' && request.headers.has('origin') && request.headers.has('access-control-request-method');

const CORS_FIELDS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type' };

/** Whether an Accept value accepts application/json (any case, any q but 0). */
const acceptsJson = (value: string): boolean =>
  value.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return ['application/json', 'application/*', '*/*'].includes(type) && !(q && Number(q.slice(2)) === 0);
  });

/** A multipart createPet read into the NewPet its parts name, or undefined when the body is no form. */
async function newPetOfForm(request: Request): Promise<string | undefined> {
  try {
    const form = await request.clone().formData();
    const status = form.get('status');
    return JSON.stringify({ name: String(form.get('name') ?? ''), categoryId: Number(form.get('categoryId')), ...(status === null ? {} : { status: String(status) }) });
  } catch {
    return undefined;
  }
}

const OTHER_SAFE_METHODS = ['QUERY', 'SEARCH', 'PROPFIND', 'REPORT'];

export const KEYLESS_FAULTY: SpellingServerSpec[] = [
  {
    name: 'T2 Cache-Control max-stale (or only-if-cached) served from a cache that stored a keyed answer: the keyed answer to a keyless request',
    spelling: 'T2',
    source: 'OkHttp offline interceptors of Android generated clients (CacheControl maxStale, FORCE_CACHE), hand-written curl',
    behaviour: 'a shared cache in front of the key check stores GET 200 answers by target whatever their Authorization (RFC 9111 §3.5 forbids it), and answers a request that accepts a stale answer from storage without asking the origin',
    statement: `${AUTH} RFC 9111 §5.2.1: request directives are for caches; an origin answers as always.`,
    wrap: sharedCache(false),
  },
  {
    name: 'T4 every OPTIONS exempt from the key, then served by a handler whose default case is the list or the animal',
    spelling: 'T4',
    source: 'every browser, before a cross-origin call that carries Authorization: OPTIONS with Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    behaviour: 'the key check lets every OPTIONS by (no credentials on a preflight), but the handler serves every method but POST as GET (Go: if r.Method == POST {create} else {list})',
    statement: `${AUTH} An OPTIONS is no operation: answered without the operation's data (a preflight's 204) or refused.`,
    wrap: bypassWhen(
      (request) => request.method === 'OPTIONS',
      () => ({ method: 'GET' }),
    ),
  },
  {
    name: 'T4b a CORS preflight given its CORS fields, exempt from the key, then passed on to the list or animal handler',
    spelling: 'T4',
    source: 'every browser, before a cross-origin call that carries Authorization',
    behaviour: "a CORS middleware that writes the preflight's fields and passes it on (Express cors({ preflightContinue: true })); the key check skips a preflight; the handler serves every method but POST as GET, so the preflight gets the catalogue (an OPTIONS without Origin and Access-Control-Request-Method gets the mock's answer)",
    statement: `${AUTH} A preflight carries no credentials (Fetch standard): answered without the operation's data.`,
    wrap: (fetch) => async (request, env) => {
      if (!isPreflight(request)) return fetch(request, env);
      const response = await fetch(await letIn(request, { method: 'GET' }), env);
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(CORS_FIELDS)) headers.set(name, value);
      return new Response(response.body, { status: response.status, headers });
    },
  },
  {
    name: 'T8 Accept split over two field lines read from its first line only: 406 to a request that accepts JSON',
    spelling: 'T8',
    source: "proxies that add a field line rather than append to one, Go's Header.Add, a merge of a client's defaults and a call's fields",
    behaviour: "content negotiation reads the first Accept field line only (Go's Header.Get, a rawHeaders lookup) and answers 406 when it does not accept application/json",
    statement: 'What the service does: "Requests and responses use the media type application/json"; RFC 9110 §5.3: field lines of one name are one list, in order.',
    wrap: (fetch) => (request, env) => {
      const first = fieldLines(env, 'accept')[0];
      if (first !== undefined && first.trim() !== '' && !acceptsJson(first)) return errorResponse(406, 'not_acceptable', 'only application/json is served');
      return fetch(request, env);
    },
  },
  {
    name: 'T9 a multipart/form-data createPet served by a route registered before the key check: stored without the key',
    spelling: 'T9',
    source: 'a browser\'s fetch with a FormData body or an HTML form with enctype="multipart/form-data" (a CORS-safelisted type, no preflight), curl -F',
    behaviour: 'an "upload" route for multipart bodies, registered ahead of the key middleware, reads name, categoryId and status from the parts and creates the animal',
    statement: `${AUTH} A refused create stores nothing.`,
    wrap: (fetch) => async (request, env) => {
      if (operationOf(request) !== 'createPet' || !/^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) return fetch(request, env);
      const body = await newPetOfForm(request);
      return fetch(body === undefined ? request : await letIn(request, { contentType: 'application/json', body }), env);
    },
  },
  {
    name: 'T10 a method the interface does not name (QUERY, SEARCH, PROPFIND, REPORT) let by a key check written as a method list and served as GET',
    spelling: 'T10',
    source: 'curl -X QUERY, clients of the QUERY method (draft-ietf-httpbis-safe-method-w-body), WebDAV clients',
    behaviour: 'the key check covers GET, POST, PUT, PATCH and DELETE; the handler serves every other safe method as GET',
    statement: `${AUTH} Not the same request (RFC 9110 §9.1), but the catalogue must not be given without the key whatever the method.`,
    wrap: bypassWhen(
      (request) => OTHER_SAFE_METHODS.includes(request.method),
      () => ({ method: 'GET' }),
    ),
  },
];

export const KEYLESS_CORRECT: SpellingServerSpec[] = [
  {
    name: 'K1 a CORS preflight answered 204 with CORS fields, without the key',
    spelling: 'T4',
    source: 'every browser',
    behaviour: "OPTIONS with Origin and Access-Control-Request-Method gets 204, Access-Control-Allow-Origin *, -Methods GET, POST, -Headers authorization, content-type, no body; every other request the mock's answer",
    statement: 'Fetch standard: a preflight carries no credentials and is answered before any; a 204 without content gives nothing away.',
    wrap: (fetch) => (request, env) => {
      if (!isPreflight(request)) return fetch(request, env);
      return new Response(null, { status: 204, headers: { ...CORS_FIELDS, 'access-control-max-age': '600', vary: 'Origin' } });
    },
  },
  {
    name: 'K3 a shared cache keyed on Authorization as well, answering max-stale or only-if-cached from storage',
    spelling: 'T2',
    source: 'a cache that honours Vary: Authorization (RFC 9111 §3.5, §4.1)',
    behaviour: 'GET 200 answers stored per target, Accept, Accept-Encoding and Authorization; a request accepting a stale answer gets the stored one of its own credentials only',
    statement: 'RFC 9111 §4.2.4: a client that sends max-stale accepts a stale answer; a stored answer is reused only for the same credentials.',
    wrap: sharedCache(true),
  },
];

export const KEYLESS_ALL: SpellingServerSpec[] = [...KEYLESS_FAULTY, ...KEYLESS_CORRECT];
