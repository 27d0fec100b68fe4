import { errorBody } from '../../core/errors.js';
import type { Journal, MockStore } from '../../core/store/mock-store.js';
import { sendError } from '../respond.js';
import { mayUse, sessionForbidden } from '../sessions/session-access.js';
import { exchange, json, sessionOf, type AdminRouter } from './admin-router.js';
import type { StreamStats } from './journal-stream.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';

/**
 * Health (with the journal streams' figures), the journal and the sessions. Health and the journal act on the
 * request's session; a session that is not running is shown as it would
 * start, and not kept.
 */
export function sessionRoutes(router: AdminRouter, store: MockStore, streams: () => StreamStats, profile: ActiveProfile): void {
  router.on('GET', '/health', async (c) => {
    const session = sessionOf(c);
    const reachable = await store.health();
    if (!reachable.ok) return sendError(exchange(c), errorBody('store_unavailable', `the ${store.kind} store cannot serve: ${reachable.error}`), { 'retry-after': '1' });
    const active = await session.control.active();
    const [pets, state, calls] = await Promise.all([active.catalogue.count(), active.state(), active.calls()]);
    return json(c, 200, { status: 'ok', store: store.kind, ...reachable.value, session: session.id, scenario: active.scenario?.name ?? null, state, calls, pets, profile: { name: profile.current.profile.name, file: profile.current.file }, streams: streams() });
  });

  router.on('GET', '/journal', async (c) => json(c, 200, await shown(sessionOf(c).journal)));
  router.on('DELETE', '/journal', async (c) => json(c, 200, await cleared(sessionOf(c).journal)));
  // Requests without an accepted key, whatever session they named (steps/journal.ts).
  router.on('GET', '/journal/anonymous', async (c) => json(c, 200, await shown(store.anonymous)));
  router.on('DELETE', '/journal/anonymous', async (c) => json(c, 200, await cleared(store.anonymous)));

  router.on('GET', '/sessions', async (c) => {
    const x = exchange(c);
    const running = (await store.list()).filter((session) => mayUse(x, session));
    return json(c, 200, {
      maxSessions: store.maxSessions,
      idleSeconds: store.idleMs / 1000,
      sessions: running.map(({ id, scenario, pets, idleSeconds, journal }) => ({ id, scenario, pets, idleSeconds, journal })),
    });
  });
  // With --session-per-key, a key ends its own sessions only; the admin key ends them all.
  router.on('DELETE', '/sessions', async (c) => {
    const x = exchange(c);
    let ended = 0;
    for (const session of await store.list()) if (mayUse(x, session) && (await store.end(session.id))) ended += 1;
    return json(c, 200, { ended });
  });
  router.on('DELETE', '/sessions/:id', async (c) => {
    const id = c.req.param('id') ?? '';
    const x = exchange(c);
    const running = await store.find(id);
    if (running && !mayUse(x, running)) return sendError(x, sessionForbidden(id));
    if (!(await store.end(id))) return sendError(x, errorBody('unknown_session', `no session ${JSON.stringify(id)} is running (it may have ended idle or been evicted); GET /__mock/sessions lists them`));
    return json(c, 200, { ended: 1 });
  });
}

const shown = async (journal: Journal) => ({ capacity: journal.capacity, entries: await journal.entries() });
async function cleared(journal: Journal) {
  await journal.clear();
  return { capacity: journal.capacity, entries: [] };
}
