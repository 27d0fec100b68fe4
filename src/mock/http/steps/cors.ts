import { addResponseHeaders, type Step } from '../exchange.js';
import { respond } from '../respond.js';

export interface CorsOptions {
  /** `*` for any origin, or the origins allowed (with credentials). */
  origins: '*' | readonly string[];
  /** What the route serves, as its 405's `Allow` says (route-methods.ts). */
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
  /** Told of a cross-origin request from an origin the list leaves out (unlisted-origins.ts logs it). */
  onUnlisted?: ((origin: string) => void) | undefined;
}

/** The headers of an actual answer, and those of a preflight, for one kind of `Origin`. */
interface OriginHeaders {
  readonly answer: Readonly<Record<string, string>>;
  readonly preflight: Readonly<Record<string, string>>;
}

/**
 * CORS (Fetch standard, "CORS protocol"). hono/cors does the same job, but
 * it sets its headers on `c.res`, which makes every response go through
 * fetch `Headers` objects, which cost the mock most of its throughput when
 * measured (BENCHMARKS.md, "The first speed work"). This one hands its headers to `respond`, and builds
 * them once per route and origin, when the app is made: a request only
 * looks its `Origin` up.
 * Any OPTIONS request is answered 204 without a key, as a preflight must be.
 *
 * Credentials (cookies, HTTP authentication, `fetch(…, { credentials:
 * 'include' })`) are allowed for the origins `--cors-origin` names, whose
 * own value is sent back. With `*` they cannot be: the Fetch standard
 * refuses a credentialed answer whose `Access-Control-Allow-Origin` is `*`,
 * and reflecting every origin instead would let any web page read what a
 * logged-in user's browser is answered.
 */
export function cors(options: CorsOptions): Step {
  const expose = options.exposeHeaders.join(', ');
  const preflight = {
    'access-control-allow-methods': options.allowMethods.join(', '),
    // A wildcard would not cover Authorization (nor anything, with credentials), so the headers are named.
    'access-control-allow-headers': options.allowHeaders.join(', '),
    'access-control-max-age': String(options.maxAgeSeconds),
  };
  // Every OPTIONS answer says what the route serves, a preflight or not (RFC 9110 §9.3.7, §10.2.1).
  const allow = { allow: options.allowMethods.join(', ') };
  const allowing = (answer: Record<string, string>): OriginHeaders => Object.freeze({ answer: Object.freeze(answer), preflight: Object.freeze({ ...answer, ...allow, ...preflight }) });

  // With any origin, every answer gets the same headers. Never mutated: respond and addResponseHeaders copy.
  const anyOrigin = options.origins === '*' ? allowing({ 'access-control-allow-origin': '*', 'access-control-expose-headers': expose }) : undefined;
  // With a list, the answer depends on the Origin: caches must know (Fetch standard, CORS and HTTP caches).
  // `null` is never allowed credentials, even listed: every sandboxed frame and file: page sends it.
  const listed = new Map(
    (options.origins === '*' ? [] : options.origins.filter((origin) => origin !== 'null')).map((origin) => [
      origin,
      allowing({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-expose-headers': expose, vary: 'Origin' }),
    ]),
  );
  const unlisted: OriginHeaders = Object.freeze({ answer: Object.freeze({ vary: 'Origin' }), preflight: Object.freeze({ vary: 'Origin', ...allow }) });

  const { onUnlisted } = options;
  return function corsHeaders(x, next) {
    const origin = x.c.req.header('origin');
    const headers = anyOrigin ?? listed.get(origin ?? '') ?? unlisted;
    // A page of the mock's own origin (the console, /docs) needs no CORS; `null` is never allowed, listed or not.
    if (headers === unlisted && origin !== undefined && origin !== 'null' && onUnlisted && origin !== new URL(x.c.req.url).origin) onUnlisted(origin);
    if (x.c.req.method === 'OPTIONS') return respond(x, 204, null, headers.preflight);
    addResponseHeaders(x, headers.answer);
    return next(x);
  };
}
