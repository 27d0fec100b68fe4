import { DEFAULT_JOURNAL_SIZE } from '../journal/request-journal.js';

/** What every store keeps within, whichever it is. */
export interface StoreLimits {
  /** At most this many sessions besides the shared one; starting one more ends the least recently used. */
  maxSessions: number;
  /** A session idle this long (ms) ends. */
  idleMs: number;
  /** A session used this recently (ms) is never ended to make room. */
  protectMs: number;
  /** Entries each journal keeps. */
  journalSize: number;
}

export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_PROTECT_MS = 60 * 1000;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * The limits asked for, each else its default, checked once for both
 * stores: a wrong one is a mistake of whoever starts the mock, told at
 * start, not at the first request. Protection never outlasts idleness:
 * a session idle long enough to end is not protected from eviction either.
 */
export function storeLimits(asked: Partial<StoreLimits> = {}): StoreLimits {
  const { maxSessions = DEFAULT_MAX_SESSIONS, idleMs = DEFAULT_SESSION_IDLE_MS, journalSize = DEFAULT_JOURNAL_SIZE } = asked;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) throw new Error(`the session limit must be a whole number above 0, got ${maxSessions}`);
  if (!(idleMs > 0)) throw new Error(`the session idle time must be above 0, got ${idleMs}`);
  if (!Number.isInteger(journalSize) || journalSize < 1) throw new Error(`the journal size must be a whole number above 0, got ${journalSize}`);
  return { maxSessions, idleMs, journalSize, protectMs: Math.min(asked.protectMs ?? DEFAULT_SESSION_PROTECT_MS, idleMs) };
}
