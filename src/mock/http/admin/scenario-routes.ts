import { errorBody } from '../../core/errors.js';
import { fail, ok, type Result } from '../../core/result.js';
import { describeScenarioFiles } from '../../core/scenarios/describe-scenario-files.js';
import { findScenarioEntry } from '../../core/scenarios/scenario-source.js';
import { sendError } from '../respond.js';
import { bodySize } from '../steps/body-size.js';
import { openForWrite } from './open-session.js';
import { asMiddleware, exchange, json, sessionOf, type AdminRouter, type AdminRoutesOptions } from './admin-router.js';

/**
 * The scenario routes: list, activate, reset. Each acts on the request's
 * session; an activation is the one admin request that starts a session.
 */
export function scenarioRoutes(router: AdminRouter, { contract, store, sessionPerKey = false, onActivate }: AdminRoutesOptions): void {
  const source = store.shared.control.scenarios;
  router.on('GET', '/scenarios', async (c) => {
    const active = (await sessionOf(c).control.active()).scenario?.name ?? null;
    const listed = describeScenarioFiles(contract, source, active ?? undefined);
    if (!listed.ok) return sendError(exchange(c), errorBody('internal_error', listed.error));
    return json(c, 200, { active, scenarios: listed.value });
  });

  router.on('PUT', '/scenarios/active', asMiddleware(bodySize(64 * 1024)), async (c) => {
    const name = readName(await c.req.text());
    if (!name.ok) return sendError(exchange(c), name.error);
    // QA sets up a session's scenario before its first request.
    const x = exchange(c);
    const opened = await openForWrite(x, store, sessionPerKey);
    if ('refused' in opened) return opened.refused;
    const { session, started } = opened;
    const activated = await session.control.activate(name.value);
    if (!activated.ok) {
      const kept = (await session.control.active()).scenario?.name;
      if (started && session.id !== null) await store.end(session.id);
      return sendError(exchange(c), { ...activated.error, message: `${activated.error.message} (still active: ${kept ?? 'none'})` });
    }
    const { description, file } = activated.value;
    onActivate?.(session.id, name.value, file);
    const pets = await (await session.control.active()).catalogue.count();
    return json(c, 200, { active: name.value, description, file, pets });
  });

  router.on('POST', '/reset', async (c) => {
    const { scenario, pets, state } = await sessionOf(c).control.reset();
    return json(c, 200, { active: scenario, pets, state });
  });

  router.on('POST', '/scenarios/:name/reset', async (c) => {
    const name = c.req.param('name') ?? '';
    const found = findScenarioEntry(source, name);
    if (!found.ok) return sendError(exchange(c), errorBody('unknown_scenario', found.error));
    const reset = await sessionOf(c).control.resetScenario(name);
    return json(c, 200, { scenario: name, started: reset !== undefined, pets: reset?.pets ?? null, state: reset?.state ?? null });
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
