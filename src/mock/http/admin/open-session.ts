import type { MockStore, Session } from '../../core/store/mock-store.js';
import type { Exchange } from '../exchange.js';
import { sendError } from '../respond.js';
import { mayUse, ownerFor, sessionForbidden } from '../sessions/session-access.js';
import { sendRefused } from '../steps/session.js';

/**
 * The request's session, started when it is not running (an admin write
 * that sets a session up before its first request: an activation, a
 * stub), with whether this call started it; or the answer refusing it
 * (the table full, another key's session).
 */
export async function openForWrite(x: Exchange, store: MockStore, perKey: boolean): Promise<{ session: Session; started: boolean } | { refused: Response }> {
  const { id } = x.session;
  const started = id !== null && (await store.find(id)) === undefined;
  const opened = id === null ? { ok: true as const, value: store.shared } : await store.open(id, ownerFor(x, id, perKey));
  if (!opened.ok) return { refused: sendRefused(x, opened.error) };
  // Checked again: another key may have opened this session while the body arrived.
  if (!mayUse(x, opened.value)) return { refused: sendError(x, sessionForbidden(opened.value.id as string)) };
  return { session: opened.value, started };
}
