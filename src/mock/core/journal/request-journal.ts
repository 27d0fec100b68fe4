import { randomBytes, toHex } from '../../../shared/digest.js';
/** A request or an answer as a journal entry keeps it: its headers and the start of its body. */
export interface JournalMessage {
  headers: Record<string, string>;
  body: string;
  /** The body was longer than the journal keeps (undefined otherwise: JSON leaves it out). */
  bodyTruncated?: true | undefined;
  /** Headers were left out or cut (request headers only: see journal-headers.ts). */
  headersTruncated?: true | undefined;
}

/** One request as the journal keeps it. */
export interface JournalEntry {
  /**
   * Its place in its journal: one more than the entry appended before it,
   * the first 1; never reused while the journal lives (a clear keeps
   * counting). 0 until appended: the journal sets it. First, as the Redis
   * store writes it into the entry's JSON there (redis-journal.ts).
   */
  seq: number;
  /** When it was answered, ISO 8601 in UTC with ms. */
  at: string;
  /** The session whose journal holds it; null: the shared default's, or the anonymous journal. */
  session: string | null;
  method: string;
  /** The path with its query, as sent. */
  path: string;
  status: number;
  ms: number;
  /** The documented operation it was routed to, or null (unknown path, other method, preflight). */
  operation: string | null;
  /** The scenario that served it (its session's active one, or `Prefer: scenario=`'s), or null. */
  scenario: string | null;
  /** The stub that answered (`id` or `#index`), or null. */
  stub: string | null;
  /** When no stub answered: why, in one short phrase. */
  unmatched?: string | undefined;
  request: JournalMessage;
  response: JournalMessage;
  /** Proxy mode, a request sent on to the target: how that ended (answered, unavailable, timeout, dropped). */
  upstream?: 'answered' | 'unavailable' | 'timeout' | 'dropped' | undefined;
  /** Proxy mode, the target unavailable or too slow: the mock answered itself (`--proxy-fallback mock`). */
  fallback?: 'mock' | undefined;
  /** Proxy mode: the answer's body passed the check's cap, so it was passed on unchecked. */
  unchecked?: 'too large' | undefined;
  /** Proxy mode: what the target's answer broke, by the harness's check id and the statement it protects. */
  violations?: Array<{ rule: string; statement: string; detail: string }> | undefined;
}

/**
 * How many entries a journal has appended since it began, by status and by
 * operation (`none`: no operation), kept by the append itself: a stream's
 * summary is the difference of two of these, with no entry read. Bounded
 * by the statuses and the document's operations.
 */
export interface JournalCounts {
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
}

/** What a journal appended after a seq (Journal.since in mock-store.ts). */
export interface JournalSince {
  /**
   * Those still held with a seq above it, at most the `max` newest, oldest
   * first; none when more than `max` are newer and `allOrNone` was asked
   * (the caller then summarises them from `counts`).
   */
  entries: JournalEntry[];
  /** This journal's identity: another value means another journal (the mock restarted, the session started afresh). */
  id: string;
  counts: JournalCounts;
  /** The latest seq appended (0: none ever). */
  last: number;
  /** How many were appended after it in all (some may be overwritten since, or not returned). */
  newer: number;
  /** How many times the journal was emptied (DELETE /__mock/journal) since it began. */
  cleared: number;
  /** Set once its session has ended (idle, evicted, deleted): why. */
  ended?: string | undefined;
}

export interface RequestJournal {
  readonly capacity: number;
  /** O(1): overwrites the oldest entry once full; sets the entry's seq. */
  append(entry: JournalEntry): void;
  /** Oldest first, newest last. */
  entries(): JournalEntry[];
  /** O(returned): see JournalSince. */
  since(seq: number, max: number, allOrNone?: boolean): JournalSince;
  size(): number;
  /** Empties it; seqs go on from where they were. */
  clear(): void;
  /** Its session ended: `since` says so from now on (a stream following it ends). */
  end(reason: string): void;
}

/** Counts an entry by its status and operation (`none`: no operation; an operationId is the document's, never __proto__). */
export function countEntry({ byStatus, byOperation }: JournalCounts, { status, operation }: Pick<JournalEntry, 'status' | 'operation'>): void {
  byStatus[status] = (byStatus[status] ?? 0) + 1;
  const name = operation ?? 'none';
  byOperation[name] = (byOperation[name] ?? 0) + 1;
}

export const DEFAULT_JOURNAL_SIZE = 500;
/** The most `--journal-size` accepts: an entry takes at most about 12.1 KB of heap (docs/reference.md, Bounds), so a journal stays under about 116 MiB. */
export const MAX_JOURNAL_SIZE = 10_000;

/** The last `capacity` requests, in a ring buffer: appending never copies or shifts. */
export function createRequestJournal(capacity = DEFAULT_JOURNAL_SIZE): RequestJournal {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`the journal size must be a whole number above 0, got ${capacity}`);
  const ring: Array<JournalEntry | undefined> = new Array<JournalEntry | undefined>(capacity);
  let next = 0;
  let count = 0;
  let last = 0;
  let cleared = 0;
  let ended: string | undefined;
  // Random for each journal in memory: a restarted mock's journal is another one, whatever its seqs.
  const id = toHex(randomBytes(8));
  const counts: JournalCounts = { byStatus: {}, byOperation: {} };
  /** The entry `back` places before the newest (0: the newest). */
  const newest = (back: number): JournalEntry => ring[(((next - 1 - back) % capacity) + capacity) % capacity] as JournalEntry;
  return {
    capacity,
    append(entry) {
      last += 1;
      entry.seq = last;
      ring[next] = entry;
      next = next + 1 === capacity ? 0 : next + 1;
      if (count < capacity) count += 1;
      countEntry(counts, entry);
    },
    entries() {
      const out: JournalEntry[] = [];
      for (let back = count - 1; back >= 0; back--) out.push(newest(back));
      return out;
    },
    since(seq, max, allOrNone = false) {
      const newer = Math.max(0, last - seq);
      // The held entries are the `count` newest seqs, one apart: those above `seq` are the newest `newer` of them.
      const take = allOrNone && newer > max ? 0 : Math.min(newer, count, max);
      const entries: JournalEntry[] = [];
      for (let back = take - 1; back >= 0; back--) entries.push(newest(back));
      // Copies: the stream keeps them to subtract from the next tick's.
      return { entries, id, counts: { byStatus: { ...counts.byStatus }, byOperation: { ...counts.byOperation } }, last, newer, cleared, ended };
    },
    size: () => count,
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
      cleared += 1;
    },
    end(reason) {
      ended = reason;
    },
  };
}
