import { NO_METHODS } from '../route-methods.js';
import { escapeRegExp } from '../../../shared/escape-reg-exp.js';

/** Each admin path's methods, as its routes are registered, for its 405's `Allow` and its preflight. */
export interface AdminMethods {
  /** A route: its Hono path (`/__mock/sessions/:id`, `/__mock/console/*`) and one method it serves. */
  add(path: string, method: string): void;
  /** What a request path's routes serve, with HEAD beside GET and OPTIONS, sorted; OPTIONS alone for a path with no route. */
  at(path: string): readonly string[];
}

/**
 * The admin API's own table of methods. Its preflights are answered before
 * Hono routes the request (steps/admin-guard/admin-origin.ts), so they look
 * the path up here: a browser is then never told a method is allowed that
 * the route answers with 405 (as route-methods.ts does for the API). Worked
 * out on each preflight, from about fifteen routes, and not kept: a path
 * such as `/__mock/sessions/<any id>` would grow a cache without bound.
 */
export function adminMethods(): AdminMethods {
  const routes: Array<{ pattern: RegExp; method: string }> = [];
  return {
    add(path, method) {
      routes.push({ pattern: patternOf(path), method });
    },
    at(path) {
      const served = new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
      if (served.size === 0) return NO_METHODS;
      served.add('OPTIONS');
      if (served.has('GET')) served.add('HEAD');
      return [...served].sort();
    },
  };
}

/** A Hono path as a RegExp: `:name` one segment, a trailing `*` anything. */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)))
    .join('/');
  return new RegExp(`^${source}$`);
}
