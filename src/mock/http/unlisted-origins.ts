import type { Log } from '../core/log/log.js';
import { printable } from '../core/log/printable.js';
import { clip } from '../core/errors.js';

/**
 * The most origins named in the log as not listed by `--cors-origin`: each
 * is remembered so it is named once, and a client can send any number of
 * made-up `Origin` values. Past it, one line says that more came.
 */
export const MAX_UNLISTED_ORIGINS_LOGGED = 20;

/**
 * A warning, once per origin, when a page on an origin `--cors-origin`
 * does not list calls the mock: the mock answers, but the browser keeps
 * the answer from the page (Fetch standard, CORS check), and the page's
 * developer sees only a network error. Only the log can say why.
 */
export function warnUnlistedOrigins(logger: Log, listed: readonly string[]): (origin: string) => void {
  const named = new Set<string>();
  let full = false;
  return (origin) => {
    if (named.has(origin) || full) return;
    if (named.size === MAX_UNLISTED_ORIGINS_LOGGED) {
      full = true;
      logger.warn(`more origins that --cors-origin does not list called the mock; past ${MAX_UNLISTED_ORIGINS_LOGGED}, they are not named`);
      return;
    }
    named.add(origin);
    const shown = printable(clip(origin));
    logger.warn({ origin: shown }, `a page at ${shown} called the mock, but --cors-origin lists only ${listed.join(', ')}: its browser will not let it read the answers (add it with --cors-origin)`);
  };
}
