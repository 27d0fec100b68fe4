import { errorBody } from '../../../core/errors.js';
import type { Step } from '../../exchange.js';
import { sendError } from '../../respond.js';

/**
 * The admin API refuses what a browser says came from another site or
 * without CORS (Fetch Metadata, W3C "Fetch Metadata Request Headers"): a
 * foreign page's `<img>`, `<script>` or `fetch(…, { mode: 'no-cors' })`
 * is a GET that carries no `Origin`, so the Origin step lets it by; the
 * page cannot read the answer, but it can hold a journal stream open or
 * make the mock do the work. So `Sec-Fetch-Mode: no-cors` is refused
 * always (the console and a CORS-allowed page use `cors`), and
 * `Sec-Fetch-Site: cross-site` unless the `Origin` is one `--cors-origin`
 * names. Clients that send neither header (curl, node, older browsers)
 * pass, as the Host, Origin and key steps still apply. The console's files
 * are not behind this step: a page's stylesheet is fetched `no-cors`.
 */
export function adminFetchSite(origins: '*' | readonly string[]): Step {
  const allowed = new Set(origins === '*' ? [] : origins.filter((origin) => origin !== 'null'));
  return function adminFetchSiteCheck(x, next) {
    const mode = x.c.req.header('sec-fetch-mode');
    const site = x.c.req.header('sec-fetch-site');
    const origin = x.c.req.header('origin');
    const crossSite = site === 'cross-site' && !(origin !== undefined && allowed.has(origin));
    if (mode !== 'no-cors' && !crossSite) return next(x);
    const why = mode === 'no-cors' ? 'Sec-Fetch-Mode: no-cors (an <img>, <script> or no-cors fetch, whose answer its page cannot read)' : 'Sec-Fetch-Site: cross-site from an origin --cors-origin does not name';
    return sendError(
      x,
      errorBody('origin_not_allowed', `A browser request sent with ${why} may not use the admin API: call it with fetch from the mock's own pages, or from an origin --cors-origin names.`),
      // The answer depends on these headers (RFC 9110 §12.5.5).
      { vary: 'Origin, Sec-Fetch-Mode, Sec-Fetch-Site' },
    );
  };
}
