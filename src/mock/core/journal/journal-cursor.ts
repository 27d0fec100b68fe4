import type { JournalEntry, JournalSince } from './request-journal.js';

/** How often a journal stream looks for new entries (ms). */
export const STREAM_INTERVAL_MS = 250;
/** More new entries than this in one tick are sent as one `summary`, not one by one. */
export const SUMMARY_ABOVE = 50;
/**
 * A summary counts at most this many of the newest entries it covers, per
 * store. In memory, counting is a walk over objects already there. On
 * Redis, each counted entry is read and parsed whole (up to ~7 KB of JSON:
 * its headers and bodies), every tick of every open stream: 1,000 would be
 * up to 28 MB a second per stream under load, taken from the API's requests.
 */
export const SUMMARY_SAMPLE: Readonly<Record<'memory' | 'redis', number>> = { memory: 1000, redis: 200 };

/** What a journal stream sends (README: "The journal stream"). */
export type StreamEvent =
  | { event: 'entries'; data: JournalEntry[] }
  | { event: 'summary'; data: JournalSummary }
  | { event: 'cleared'; data: Record<string, never> }
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
  /** How many of the newest entries were counted (at most SUMMARY_SAMPLE of the store). */
  sampled: number;
}

/** Where one stream is in its journal: the last seq sent, the clears seen, and whether a tick was skipped. */
export interface JournalCursor {
  sent: number;
  cleared: number;
  /** A tick was skipped (the reader had not taken the previous event): the next one sends a summary. */
  behind: boolean;
}

/** A cursor just after `since`'s entries: the backlog was `since`. */
export const cursorAfter = (since: JournalSince): JournalCursor => ({ sent: since.last, cleared: since.cleared, behind: false });

/**
 * What one tick sends, given what the journal appended since the cursor
 * (read with `since(cursor.sent, SUMMARY_SAMPLE[store])`), and the cursor moved on:
 * `cleared` first if the journal was emptied, then the new entries, or a
 * summary of them when more than SUMMARY_ABOVE arrived or the reader fell
 * behind, then `ended` when the session has. Nothing when nothing is new.
 */
export function nextEvents(cursor: JournalCursor, since: JournalSince): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (since.cleared !== cursor.cleared) events.push({ event: 'cleared', data: {} });
  if (since.newer > 0) {
    if (since.newer > SUMMARY_ABOVE || cursor.behind) events.push({ event: 'summary', data: summary(cursor.sent + 1, since) });
    else events.push({ event: 'entries', data: since.entries });
  }
  if (since.ended !== undefined) events.push({ event: 'ended', data: { reason: since.ended } });
  cursor.sent = Math.max(cursor.sent, since.last);
  cursor.cleared = since.cleared;
  cursor.behind = false;
  return events;
}

function summary(from: number, { entries, last, newer }: JournalSince): JournalSummary {
  const byStatus: Record<string, number> = {};
  const byOperation: Record<string, number> = {};
  for (const { status, operation } of entries) {
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    const name = operation ?? 'none';
    // An operationId is the document's (a name like listPets), never __proto__: counted as any key.
    byOperation[name] = (byOperation[name] ?? 0) + 1;
  }
  return { from, to: last, count: newer, byStatus, byOperation, sampled: entries.length };
}
