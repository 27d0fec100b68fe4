import { unrefTimer } from '../../../../shared/unref-timer.js';
import { randomBytes } from '../../../../shared/digest.js';
import { createRequestJournal, type RequestJournal } from '../../journal/request-journal.js';
import { failed, ok } from '../../result.js';
import { memorySessionStubs } from './memory-session-stubs.js';
import { createMemoryControl, type MemoryControl } from './memory-control.js';
import type { ScenarioLibrary } from '../../scenarios/scenario-library.js';
import type { MockStore, ScenarioStart, Session, SessionEndReason } from '../mock-store.js';
import type { StoreLimits } from '../store-limits.js';

/** A session in memory: the interface's, plus when it was last used. */
export interface MemorySession extends Session {
  readonly control: MemoryControl;
  readonly journal: RequestJournal;
  /** When it last served a request (ms on the store's clock, monotonic by default). */
  lastSeen: number;
}

export interface MemoryStoreOptions {
  library: ScenarioLibrary;
  /** What the shared default and every new session start with: the start-up scenario and catalogue, not whatever the shared default has become. */
  start: ScenarioStart;
  /** Checked by storeLimits (open-store.ts opens this store with them). */
  limits: StoreLimits;
  /** Told when a session ends other than by the admin API. */
  onEnd?: ((id: string, why: SessionEndReason) => void) | undefined;
}

/**
 * The sessions of one mock (`X-Mock-Session`). Memory stays bounded by
 * count and by idle time: the Map is kept in least-recently-used order
 * (each use moves a session to the end), so both the eviction and the idle
 * sweep look only at its head.
 *
 * A full table ends its least recently used session to make room, unless
 * that one was used within `protectMs`: then the new session is refused.
 * So a client opening sessions as fast as it can ends only sessions idle
 * for a minute or more, never one in use.
 *
 * One closure over the store's private state (its Map and sweep timer):
 * its length is its methods, each of them short.
 */
/** The memory store (`--store memory`, the default): every method answers at once. */
export function createMemoryStore(options: MemoryStoreOptions): MockStore {
  const { library } = options;
  // A monotonic clock: a wall-clock jump must not end every session.
  const now = (): number => performance.now();
  const { maxSessions, idleMs, protectMs, journalSize } = options.limits;
  let start = options.start;
  const sessions = new Map<string, MemorySession>();
  const newSession = (id: string | null, from: ScenarioStart, owner?: string): MemorySession => ({
    id,
    owner,
    control: createMemoryControl({ library, start: from }),
    journal: createRequestJournal(journalSize),
    stubs: memorySessionStubs(),
    lastSeen: now(),
  });
  const shared = newSession(null, start);

  // A sweep now and then frees idle sessions even when no request comes. It
  // runs only while there are sessions, and, unref'd, never holds the process open.
  let timer: ReturnType<typeof setInterval> | undefined;
  function sweep(): void {
    const oldest = now() - idleMs;
    for (const [id, session] of sessions) {
      if (session.lastSeen > oldest) break;
      drop(id, `session ${id} ended: idle for ${Math.round(idleMs / 1000)} s`);
      options.onEnd?.(id, 'idle');
    }
    if (sessions.size === 0) stopSweeping();
  }
  /** Ends a session; a stream following its journal is told why. */
  function drop(id: string, why: string): boolean {
    const session = sessions.get(id);
    if (!session) return false;
    sessions.delete(id);
    session.journal.end(why);
    return true;
  }
  function stopSweeping(): void {
    clearInterval(timer);
    timer = undefined;
  }

  return {
    kind: 'memory',
    secret: randomBytes(32),
    shared,
    anonymous: createRequestJournal(journalSize),
    maxSessions,
    idleMs,
    open(id, owner) {
      sweep();
      const found = sessions.get(id);
      if (found) {
        sessions.delete(id);
        sessions.set(id, found);
        found.lastSeen = now();
        return ok(found);
      }
      for (const [oldest, session] of sessions) {
        if (sessions.size < maxSessions) break;
        const protectedFor = session.lastSeen + protectMs - now();
        if (protectedFor > 0) return failed({ retryAfterMs: protectedFor, protectMs });
        drop(oldest, `session ${oldest} ended: the least recently used, to make room for another (--max-sessions ${maxSessions})`);
        options.onEnd?.(oldest, 'evicted');
      }
      const session = newSession(id, start, owner);
      sessions.set(id, session);
      if (!timer) {
        timer = setInterval(sweep, Math.min(idleMs, 60_000));
        unrefTimer(timer);
      }
      return ok(session);
    },
    find: (id) => sessions.get(id),
    preview: (id) => newSession(id, start),
    list() {
      const at = now();
      return [...sessions.values()].map((session) => {
        const active = session.control.active();
        return {
          id: session.id as string,
          owner: session.owner,
          scenario: active.scenario?.name ?? null,
          pets: active.size(),
          idleSeconds: Math.max(0, Math.round((at - session.lastSeen) / 1000)),
          journal: session.journal.size(),
        };
      });
    },
    end: (id) => drop(id, `session ${id} ended: DELETE /__mock/sessions`),
    health: () => ok({}),
    replace(loaded) {
      if (start.path === loaded.path) start = { scenario: loaded.scenario, path: loaded.path, pets: loaded.pets };
      shared.control.replace(loaded);
      for (const session of sessions.values()) session.control.replace(loaded);
    },
    paths() {
      const paths = new Set(shared.control.paths());
      if (start.path) paths.add(start.path);
      for (const session of sessions.values()) for (const path of session.control.paths()) paths.add(path);
      return paths;
    },
    close: async () => stopSweeping(),
  };
}
