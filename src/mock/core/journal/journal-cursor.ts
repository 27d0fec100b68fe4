import { countEntry, type JournalCounts, type JournalEntry, type JournalSince } from './request-journal.js';

/** How often a journal stream looks for new entries (ms). */
export const STREAM_INTERVAL_MS = 250;
/** More new entries than this in one tick are sent as one `summary`, not one by one. */
export const SUMMARY_ABOVE = 50;
/**
 * The backlog's summary of the entries before it (`?after=` far behind)
 * counts at most this many of them, per store: that one read at the
 * stream's start is of the entries themselves. In memory, counting is a
 * walk over objects already there; on Redis each is read and parsed whole
 * (up to ~7 KB of JSON). A tick's summary reads none (the journal's counts).
 */
export const BACKLOG_SAMPLE: Readonly<Record<'memory' | 'redis', number>> = { memory: 1000, redis: 200 };

/** What a journal stream sends (docs/admin-and-console.md, "The journal stream"). */
export type StreamEvent =
  | { event: 'entries'; data: JournalEntry[] }
  | { event: 'summary'; data: JournalSummary }
  | { event: 'cleared'; data: { cleared: number } }
  | { event: 'ended'; data: { reason: string } };

/** Entries that arrived too fast to send one by one, counted. */
export interface JournalSummary {
  /** The first and last seq it covers, and how many were appended between them (some may be gone from the journal). */
  from: number;
  to: number;
  count: number;
  byStatus: Record<string, number>;
  /** By operationId; `none` for a request that is no documented operation. */
  byOperation: Record<string, number>;
  /**
   * How many were counted: always `count` for a tick's summary (the
   * journal's counts, exact); kept for readers written before. For the
   * backlog's (`before`), the entries still held that were read, at most BACKLOG_SAMPLE.
   */
  sampled: number;
  /** The time it covers, in ms: since the previous read of the journal; for the backlog's, from its first counted entry's `at` to its last's. */
  ms: number;
  /** Set on the summary sent before the backlog: the entries after `?after=` that the backlog leaves out. */
  before?: true;
}

/** Where one stream is in its journal: the last seq sent, the clears seen, the counts and time of its last read, and whether a tick was skipped. */
export interface JournalCursor {
  sent: number;
  cleared: number;
  counts: JournalCounts;
  /** performance.now() at the last read. */
  at: number;
  /** A tick was skipped (the reader had not taken the previous event): the next one sends a summary. */
  behind: boolean;
}

/** A cursor just after `since`'s entries: the backlog was `since`. */
export const cursorAfter = (since: JournalSince, at: number): JournalCursor => ({ sent: since.last, cleared: since.cleared, counts: since.counts, at, behind: false });

/**
 * What one tick sends, given what the journal appended since the cursor
 * (read at `at` with `since(cursor.sent, SUMMARY_ABOVE, true)`), and the cursor moved on:
 * `cleared` first if the journal was emptied, then the new entries, or a
 * summary of them when more than SUMMARY_ABOVE arrived or the reader fell
 * behind, then `ended` when the session has. Nothing when nothing is new.
 */
export function nextEvents(cursor: JournalCursor, since: JournalSince, at: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (since.cleared !== cursor.cleared) events.push({ event: 'cleared', data: { cleared: since.cleared } });
  if (since.newer > 0) {
    // More than SUMMARY_ABOVE newer: the read returned no entry (all or none), the counts say what they were.
    if (since.newer > SUMMARY_ABOVE || cursor.behind || since.entries.length < since.newer) events.push({ event: 'summary', data: tickSummary(cursor, since, at) });
    else events.push({ event: 'entries', data: since.entries });
  }
  if (since.ended !== undefined) events.push({ event: 'ended', data: { reason: since.ended } });
  cursor.sent = Math.max(cursor.sent, since.last);
  cursor.cleared = since.cleared;
  cursor.counts = since.counts;
  cursor.at = at;
  cursor.behind = false;
  return events;
}

/** The entries appended since the cursor's read, counted exactly: the journal's counts now less those then. */
function tickSummary(cursor: JournalCursor, since: JournalSince, at: number): JournalSummary {
  const count = since.newer;
  return {
    from: cursor.sent + 1,
    to: since.last,
    count,
    byStatus: difference(since.counts.byStatus, cursor.counts.byStatus),
    byOperation: difference(since.counts.byOperation, cursor.counts.byOperation),
    sampled: count,
    ms: Math.round(at - cursor.at),
  };
}

function difference(now: Readonly<Record<string, number>>, then: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(now)) {
    const grown = value - (then[name] ?? 0);
    if (grown > 0) out[name] = grown;
  }
  return out;
}

/**
 * The summary sent before a backlog that leaves entries out: with
 * `?after=` far behind, the entries after it and before the backlog's
 * first (`read` holds those still in the journal, at most BACKLOG_SAMPLE, then the backlog).
 * Undefined when the backlog leaves nothing out.
 */
export function backlogSummary(after: number, read: JournalSince, backlog: readonly JournalEntry[]): JournalSummary | undefined {
  const first = backlog[0]?.seq ?? read.last + 1;
  const to = Math.min(first - 1, read.last);
  if (to <= after) return undefined;
  const counted = read.entries.slice(0, read.entries.length - backlog.length);
  const counts: JournalCounts = { byStatus: {}, byOperation: {} };
  for (const entry of counted) countEntry(counts, entry);
  const span = counted.length === 0 ? 0 : Date.parse(counted.at(-1)?.at ?? '') - Date.parse(counted[0]?.at ?? '');
  return { from: after + 1, to, count: to - after, ...counts, sampled: counted.length, ms: Number.isFinite(span) ? span : 0, before: true };
}
