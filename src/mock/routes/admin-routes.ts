import type { Hono } from 'hono';
import type { Contract } from '../../contract/load-contract.js';
import { errorBody } from '../errors.js';
import type { MockEnv } from '../http/mock-env.js';
import { respond, sendError } from '../http/respond.js';
import type { RequestJournal } from '../journal/request-journal.js';
import { bodySize } from '../middleware/body-size.js';
import { describeScenarioFiles } from '../scenarios/describe-scenario-files.js';
import type { ScenarioControl } from '../scenarios/scenario-control.js';

export const ADMIN_PREFIX = '/__mock';

export interface AdminRoutesOptions {
  contract: Contract;
  control: ScenarioControl;
  journal: RequestJournal;
}

/**
 * The admin API under `/__mock`: a local development tool, so it takes no
 * API key. Every answer is JSON; every error the Error body. A known path
 * with another method gets 405 with Allow, as the API's own paths do.
 */
export function adminRoutes(app: Hono<MockEnv>, { contract, control, journal }: AdminRoutesOptions): void {
  const json = (c: Parameters<typeof respond>[0], status: number, body: unknown): Response => respond(c, status, JSON.stringify(body));
  const activeName = (): string | null => control.runtime?.scenario.name ?? null;
  const methods = new Map<string, string[]>();
  const route = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string): string => {
    const full = ADMIN_PREFIX + path;
    methods.set(full, [...(methods.get(full) ?? []), method]);
    return full;
  };

  app.get(route('GET', '/health'), (c) => json(c, 200, { status: 'ok', scenario: activeName(), pets: control.store.size }));

  app.get(route('GET', '/scenarios'), (c) => {
    const listed = describeScenarioFiles(contract, control.dir, control.runtime?.scenario.name);
    if (!listed.ok) return sendError(c, errorBody('internal_error', listed.error));
    return json(c, 200, { active: activeName(), scenarios: listed.value });
  });

  app.put(route('PUT', '/scenarios/active'), bodySize(64 * 1024), async (c) => {
    const text = await c.req.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return sendError(c, errorBody('malformed_json', `the body is not well-formed JSON; send {"name": "<scenario>"}, got ${JSON.stringify(text.slice(0, 80))}`));
    }
    const name = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { name?: unknown }).name : undefined;
    if (typeof name !== 'string' || name === '') return sendError(c, errorBody('invalid_body', 'the body must be {"name": "<scenario>"} with a non-empty string name'));
    const activated = await control.activate(name);
    if (!activated.ok) {
      const kept = activeName();
      return sendError(c, { ...activated.error, message: `${activated.error.message} (still active: ${kept ?? 'none'})` });
    }
    const { description, file } = activated.value;
    return json(c, 200, { active: name, description, file, pets: control.store.size });
  });

  app.post(route('POST', '/reset'), (c) => {
    control.reset();
    return json(c, 200, { active: activeName(), pets: control.store.size, state: control.runtime?.state ?? null });
  });

  app.get(route('GET', '/journal'), (c) => json(c, 200, { capacity: journal.capacity, entries: journal.entries() }));
  app.delete(route('DELETE', '/journal'), (c) => {
    journal.clear();
    return json(c, 200, { capacity: journal.capacity, entries: [] });
  });

  for (const [path, allowed] of methods) {
    const all = new Set([...allowed, 'OPTIONS']);
    if (all.has('GET')) all.add('HEAD');
    const allow = [...all].sort().join(', ');
    app.all(path, (c) => sendError(c, errorBody('method_not_allowed', `${c.req.method} is not allowed here; allowed: ${allow}`), { allow }));
  }
}
