import { errorBody } from '../../core/errors.js';
import { fail, ok, type Result } from '../../core/result.js';
import { describeScenarioFiles } from '../../core/scenarios/describe-scenario-files.js';
import { findScenario } from '../../core/scenarios/find-scenario.js';
import { sendError } from '../respond.js';
import { bodySize } from '../steps/body-size.js';
import { sendTableFull } from '../steps/session.js';
import { mayUse, ownerFor, sessionForbidden } from '../steps/session-access.js';
import { activeName, asMiddleware, exchange, json, sessionOf, type AdminRouter, type AdminRoutesOptions } from './admin-router.js';

/**
 * The scenario routes: list, activate, reset. Each acts on the request's
 * session; an activation is the one admin request that starts a session.
 */
export function scenarioRoutes(router: AdminRouter, { contract, sessions, sessionPerKey = false, onActivate }: AdminRoutesOptions): void {
  router.on('GET', '/scenarios', (c) => {
    const active = activeName(sessionOf(c));
    const listed = describeScenarioFiles(contract, sessions.shared.control.dir, active ?? undefined);
    if (!listed.ok) return sendError(exchange(c), errorBody('internal_error', listed.error));
    return json(c, 200, { active, scenarios: listed.value });
  });

  router.on('PUT', '/scenarios/active', asMiddleware(bodySize(64 * 1024)), async (c) => {
    const name = readName(await c.req.text());
    if (!name.ok) return sendError(exchange(c), name.error);
    // QA sets up a session's scenario before its first request.
    const x = exchange(c);
    const { id } = x.session;
    const started = id !== null && sessions.find(id) === undefined;
    const opened = id === null ? ok(sessions.shared) : sessions.open(id, ownerFor(x, id, sessionPerKey));
    if (!opened.ok) return sendTableFull(x, opened.error);
    const session = opened.value;
    // Checked again: another key may have opened this session while the body arrived.
    if (!mayUse(x, session)) return sendError(x, sessionForbidden(session.id as string));
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

  router.on('POST', '/reset', (c) => {
    const session = sessionOf(c);
    const { control } = session;
    control.reset();
    return json(c, 200, { active: activeName(session), pets: control.store.size, state: control.runtime?.state ?? null });
  });

  router.on('POST', '/scenarios/:name/reset', (c) => {
    const name = c.req.param('name') ?? '';
    const found = findScenario(sessions.shared.control.dir, name);
    if (!found.ok) return sendError(exchange(c), errorBody('unknown_scenario', found.error));
    const state = sessionOf(c).control.resetScenario(name);
    return json(c, 200, { scenario: name, started: state !== undefined, pets: state?.store.size ?? null, state: state?.runtime?.state ?? null });
  });
}

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
