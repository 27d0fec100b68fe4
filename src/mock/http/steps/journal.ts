import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { MockEnv } from '../mock-env.js';
import type { SessionRegistry } from '../../core/sessions/session-registry.js';
import { SESSION_HEADER } from './session.js';

/** operationIds by Hono route path, then method (`/v1/pets/:petId` → GET → getPet). */
export type OperationRoutes = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * Records every request but the admin API's own in its session's journal
 * (a request refused before its session was picked, a 401, goes to the
 * journal of the session it names if that one runs): which
 * operation, and which stub answered or why none did (set by the scenario
 * middleware; a request it never reached was answered before the stubs).
 * One small object per request; the journal's append is O(1). The
 * operation is read off the routes Hono matched, after the answer, rather
 * than set by a middleware of its own on every route: measured, one more
 * middleware per request cost more than this look-up.
 */
export function journalRequests(sessions: SessionRegistry, adminPrefix: string, operations: OperationRoutes): MiddlewareHandler<MockEnv> {
  return async function journalRequest(c, next) {
    const started = performance.now();
    await next();
    const url = c.req.url;
    const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    if (path.startsWith(adminPrefix)) return;
    const operation = operationOf(c.req.method === 'HEAD' ? 'GET' : c.req.method, matchedRoutes(c), operations);
    const stub = c.get('stub') ?? null;
    const named = c.get('session') === undefined ? c.req.header(SESSION_HEADER) : undefined;
    const session = c.get('session') ?? (named === undefined ? undefined : sessions.find(named)) ?? sessions.shared;
    const scenario = (c.get('scenario') ?? session.control.active).runtime?.scenario.name ?? null;
    // One object of one shape per request (`unmatched` undefined when a stub answered; JSON leaves it out).
    session.journal.append({
      method: c.req.method,
      path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      operation,
      scenario,
      stub,
      unmatched: stub !== null ? undefined : (c.get('unmatched') ?? (operation === null ? 'not a documented operation' : 'answered before the stubs (auth or body limit)')),
    });
  };
}

function operationOf(method: string, routes: ReadonlyArray<{ path: string }>, operations: OperationRoutes): string | null {
  for (const route of routes) {
    const operationId = operations.get(route.path)?.get(method);
    if (operationId !== undefined) return operationId;
  }
  return null;
}
