import { errorBody } from '../../core/errors.js';
import type { RequestJournal } from '../../core/journal/request-journal.js';
import type { SessionRegistry } from '../../core/sessions/session-registry.js';
import { sendError } from '../respond.js';
import { mayUse, sessionForbidden } from '../steps/session-access.js';
import { activeName, exchange, json, sessionOf, type AdminRouter } from './admin-router.js';

/**
 * Health, the journal and the sessions. Health and the journal act on the
 * request's session; a session that is not running is shown as it would
 * start, and not kept.
 */
export function sessionRoutes(router: AdminRouter, sessions: SessionRegistry): void {
  router.on('GET', '/health', (c) => {
    const session = sessionOf(c);
    return json(c, 200, { status: 'ok', scenario: activeName(session), pets: session.control.store.size, session: session.id });
  });

  router.on('GET', '/journal', (c) => json(c, 200, shown(sessionOf(c).journal)));
  router.on('DELETE', '/journal', (c) => json(c, 200, cleared(sessionOf(c).journal)));
  // Requests without an accepted key, whatever session they named (steps/journal.ts).
  router.on('GET', '/journal/anonymous', (c) => json(c, 200, shown(sessions.anonymous)));
  router.on('DELETE', '/journal/anonymous', (c) => json(c, 200, cleared(sessions.anonymous)));

  router.on('GET', '/sessions', (c) => {
    const now = sessions.now();
    return json(c, 200, {
      maxSessions: sessions.maxSessions,
      idleSeconds: sessions.idleMs / 1000,
      sessions: sessions.list().filter((session) => mayUse(exchange(c), session)).map((session) => ({
        id: session.id,
        scenario: activeName(session),
        pets: session.control.store.size,
        idleSeconds: Math.max(0, Math.round((now - session.lastSeen) / 1000)),
        journal: session.journal.entries().length,
      })),
    });
  });
  // With --session-per-key, a key ends its own sessions only; the admin key ends them all.
  router.on('DELETE', '/sessions', (c) => {
    const x = exchange(c);
    const ended = sessions.list().filter((session) => mayUse(x, session) && sessions.end(session.id as string)).length;
    return json(c, 200, { ended });
  });
  router.on('DELETE', '/sessions/:id', (c) => {
    const id = c.req.param('id') ?? '';
    const x = exchange(c);
    const running = sessions.find(id);
    if (running && !mayUse(x, running)) return sendError(x, sessionForbidden(id));
    if (!sessions.end(id)) return sendError(x, errorBody('unknown_session', `no session ${JSON.stringify(id)} is running (it may have ended idle or been evicted); GET /__mock/sessions lists them`));
    return json(c, 200, { ended: 1 });
  });
}

const shown = (journal: RequestJournal) => ({ capacity: journal.capacity, entries: journal.entries() });
function cleared(journal: RequestJournal) {
  journal.clear();
  return { capacity: journal.capacity, entries: [] };
}
