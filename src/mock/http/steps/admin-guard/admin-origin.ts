import { clip, errorBody } from '../../../core/errors.js';
import type { Step } from '../../exchange.js';
import { sendError } from '../../respond.js';
import { cors } from '../cors.js';

/**
 * The admin API's CORS. Unlike the API's, it never allows any origin: with
 * `*` any web page a developer opens could switch the scenario or read the
 * journal. Only the origins `--cors-origin` names get CORS headers (none
 * with its default, `*`). A request whose `Origin` is neither one of them
 * nor the mock's own origin gets 403 rather than an answer the browser
 * merely hides: a "simple" cross-origin POST (Fetch standard, CORS-safelisted
 * request) is sent without a preflight, so leaving out the CORS headers
 * alone would let it change state.
 *
 * Same-origin requests pass: browsers send `Origin` on same-origin POST,
 * PUT and DELETE (Fetch standard, "append a request `Origin` header"), and
 * a page served by the mock itself must keep working. The mock's origin is
 * the request URL's (scheme and Host, as the host step checked it).
 * `Origin: null` (sandboxed frames, file: pages, some redirects) names no
 * origin that could be trusted, so it is refused even when listed.
 */
export function adminOrigin(origins: '*' | readonly string[], methodsAt: (path: string) => readonly string[]): Step {
  const named = origins === '*' ? [] : origins.filter((origin) => origin !== 'null');
  const allowed = new Set(named);
  const corsFor = (allowMethods: readonly string[]): Step =>
    cors({
      origins: named,
      allowMethods,
      allowHeaders: ['Authorization', 'Content-Type', 'X-Mock-Session'],
      exposeHeaders: ['WWW-Authenticate', 'X-Mock-Session', 'Allow'],
      maxAgeSeconds: 600,
    });
  // An answer's CORS headers do not name methods; a preflight's list its path's (admin-methods.ts), one set of headers per list.
  const answers = corsFor([]);
  const preflights = new Map<string, Step>();
  const preflightFor = (methods: readonly string[]): Step => {
    const key = methods.join(', ');
    let step = preflights.get(key);
    if (!step) preflights.set(key, (step = corsFor(methods)));
    return step;
  };
  const headers: Step = (x, next) => (x.c.req.method === 'OPTIONS' ? preflightFor(methodsAt(x.c.req.path))(x, next) : answers(x, next));
  return function adminOriginCheck(x, next) {
    const origin = x.c.req.header('origin');
    if (origin === undefined || allowed.has(origin) || origin === new URL(x.c.req.url).origin) return headers(x, next);
    return sendError(
      x,
      errorBody(
        'origin_not_allowed',
        `Origin ${JSON.stringify(clip(origin))} may not call the admin API: only the mock's own origin and the origins --cors-origin names may; start the mock with --cors-origin <origin> to allow one (Origin null never is).`,
      ),
      // The answer depends on Origin (Fetch standard, CORS and HTTP caches).
      { vary: 'Origin' },
    );
  };
}
