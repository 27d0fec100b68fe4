import type { OperationSpec } from '../../document/operations.js';

/** What a path with no route serves: only the preflight itself. */
export const NO_METHODS: readonly string[] = Object.freeze(['OPTIONS']);

/**
 * Each documented route's methods: its operations', HEAD with GET (RFC 9110
 * §9.3.2), and OPTIONS, sorted. One list serves both its 405's `Allow`
 * (RFC 9110 §15.5.6) and its preflight's `Access-Control-Allow-Methods`, so
 * a browser is never told a method is allowed that the route then refuses.
 */
export function routeMethods(routes: ReadonlyArray<{ operation: OperationSpec; route: string }>): Map<string, readonly string[]> {
  const methods = new Map<string, Set<string>>();
  for (const { operation, route } of routes) {
    const served = methods.get(route) ?? new Set(NO_METHODS);
    served.add(operation.method);
    if (operation.method === 'GET') served.add('HEAD');
    methods.set(route, served);
  }
  return new Map([...methods].map(([route, served]) => [route, Object.freeze([...served].sort())]));
}
