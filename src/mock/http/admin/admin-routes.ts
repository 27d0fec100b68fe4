import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Contract } from '../../../contract/load-contract.js';
import { errorBody } from '../../core/errors.js';
import { fail, ok, type Result } from '../../core/result.js';
import type { Exchange, MockEnv, Step } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import { bodySize } from '../steps/body-size.js';
import { describeScenarioFiles } from '../../core/scenarios/describe-scenario-files.js';
import { findScenario } from '../../core/scenarios/find-scenario.js';
import type { Session, SessionRegistry } from '../../core/sessions/session-registry.js';

export const ADMIN_PREFIX = '/__mock';

export interface AdminRoutesOptions {
  contract: Contract;
  sessions: SessionRegistry;
  /** Told of every activation, as `scenario <name> active (<file>)`. */
  onActivate?: (session: string | null, name: string, file: string) => void;
}

type AdminContext = Context<MockEnv>;

/**
 * The admin API under `/__mock`: a local development tool, so it takes no
 * API key. Every route acts on the request's session (`X-Mock-Session`, set
 * by the session middleware), or on the shared default without one. Only
 * an activation starts a session; the other routes show a session that is
 * not running as it would start, without keeping it. Every
 * answer is JSON; every error the Error body. A known path with another
 * method gets 405 with Allow, as the API's own paths do.
 */
export function adminRoutes(app: Hono<MockEnv>, { contract, sessions, onActivate }: AdminRoutesOptions): void {
  const json = (c: AdminContext, status: number, body: unknown): Response => respond(exchange(c), status, JSON.stringify(body));
  const mine = (c: AdminContext): Session => exchange(c).session;
  const activeName = (session: Session): string | null => session.control.runtime?.scenario.name ?? null;
  const methods = new Map<string, string[]>();
  const route = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string): string => {
    const full = ADMIN_PREFIX + path;
    methods.set(full, [...(methods.get(full) ?? []), method]);
    return full;
  };

  app.get(route('GET', '/health'), (c) => {
    const session = mine(c);
    return json(c, 200, { status: 'ok', scenario: activeName(session), pets: session.control.store.size, session: session.id });
  });

  app.get(route('GET', '/scenarios'), (c) => {
    const active = activeName(mine(c));
    const listed = describeScenarioFiles(contract, sessions.shared.control.dir, active ?? undefined);
    if (!listed.ok) return sendError(exchange(c), errorBody('internal_error', listed.error));
    return json(c, 200, { active, scenarios: listed.value });
  });

  app.put(route('PUT', '/scenarios/active'), asMiddleware(bodySize(64 * 1024)), async (c) => {
    const name = readName(await c.req.text());
    if (!name.ok) return sendError(exchange(c), name.error);
    // The one admin route that starts a session: QA sets up a session's scenario before its first request.
    const { id } = mine(c);
    const started = id !== null && sessions.find(id) === undefined;
    const session = id === null ? sessions.shared : sessions.open(id);
    const activated = await session.control.activate(name.value);
    if (!activated.ok) {
      if (started && id !== null) sessions.end(id);
      const kept = activeName(session);
      return sendError(exchange(c), { ...activated.error, message: `${activated.error.message} (still active: ${kept ?? 'none'})` });
    }
    const { description, file } = activated.value;
    onActivate?.(session.id, name.value, file);
    return json(c, 200, { active: name.value, description, file, pets: session.control.store.size });
  });

  app.post(route('POST', '/reset'), (c) => {
    const { control } = mine(c);
    control.reset();
    return json(c, 200, { active: activeName(mine(c)), pets: control.store.size, state: control.runtime?.state ?? null });
  });

  app.post(route('POST', '/scenarios/:name/reset'), (c) => {
    const name = c.req.param('name') ?? '';
    const found = findScenario(sessions.shared.control.dir, name);
    if (!found.ok) return sendError(exchange(c), errorBody('unknown_scenario', found.error));
    const { control } = mine(c);
    const state = control.resetScenario(name);
    return json(c, 200, { scenario: name, started: state !== undefined, pets: state?.store.size ?? null, state: state?.runtime?.state ?? null });
  });

  app.get(route('GET', '/journal'), (c) => {
    const { journal } = mine(c);
    return json(c, 200, { capacity: journal.capacity, entries: journal.entries() });
  });
  app.delete(route('DELETE', '/journal'), (c) => {
    const { journal } = mine(c);
    journal.clear();
    return json(c, 200, { capacity: journal.capacity, entries: [] });
  });

  app.get(route('GET', '/sessions'), (c) => {
    const now = sessions.now();
    return json(c, 200, {
      maxSessions: sessions.maxSessions,
      idleSeconds: sessions.idleMs / 1000,
      sessions: sessions.list().map((session) => ({
        id: session.id,
        scenario: activeName(session),
        pets: session.control.store.size,
        idleSeconds: Math.max(0, Math.round((now - session.lastSeen) / 1000)),
        journal: session.journal.entries().length,
      })),
    });
  });
  app.delete(route('DELETE', '/sessions'), (c) => json(c, 200, { ended: sessions.endAll() }));
  app.delete(route('DELETE', '/sessions/:id'), (c) => {
    const id = c.req.param('id') ?? '';
    if (!sessions.end(id)) return sendError(exchange(c), errorBody('unknown_session', `no session ${JSON.stringify(id)} is running (it may have ended idle or been evicted); GET /__mock/sessions lists them`));
    return json(c, 200, { ended: 1 });
  });

  for (const [path, allowed] of methods) {
    const all = new Set([...allowed, 'OPTIONS']);
    if (all.has('GET')) all.add('HEAD');
    const allow = [...all].sort().join(', ');
    app.all(path, (c) => sendError(exchange(c), errorBody('method_not_allowed', `${c.req.method} is not allowed here; allowed: ${allow}`), { allow }));
  }
}

/** The request's exchange, made by the admin API's steps (app.ts). */
const exchange = (c: AdminContext): Exchange => c.get('exchange');

/** A step in front of one admin route. */
const asMiddleware =
  (step: Step): MiddlewareHandler<MockEnv> =>
  async (c, next) => {
    c.res = await step(exchange(c), async () => {
      await next();
      return c.res;
    });
  };

/** The `{"name": "<scenario>"}` body of an activation. */
function readName(text: string): Result<string> {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return fail('malformed_json', `the body is not well-formed JSON; send {"name": "<scenario>"}, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { name?: unknown }).name : undefined;
  if (typeof name !== 'string' || name === '') return fail('invalid_body', 'the body must be {"name": "<scenario>"} with a non-empty string name');
  return ok(name);
}
