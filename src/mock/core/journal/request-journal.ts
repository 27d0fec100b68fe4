/** One request as the journal keeps it. */
export interface JournalEntry {
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
}

export interface RequestJournal {
  readonly capacity: number;
  /** O(1): overwrites the oldest entry once full. */
  append(entry: JournalEntry): void;
  /** Oldest first, newest last. */
  entries(): JournalEntry[];
  size(): number;
  clear(): void;
}

export const DEFAULT_JOURNAL_SIZE = 500;
/** The most `--journal-size` accepts: an entry takes at most about 3.3 KB of heap (README, Bounds), so a journal stays under about 32 MiB. */
export const MAX_JOURNAL_SIZE = 10_000;

/** The last `capacity` requests, in a ring buffer: appending never copies or shifts. */
export function createRequestJournal(capacity = DEFAULT_JOURNAL_SIZE): RequestJournal {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`the journal size must be a whole number above 0, got ${capacity}`);
  const ring: Array<JournalEntry | undefined> = new Array<JournalEntry | undefined>(capacity);
  let next = 0;
  let count = 0;
  return {
    capacity,
    append(entry) {
      ring[next] = entry;
      next = next + 1 === capacity ? 0 : next + 1;
      if (count < capacity) count += 1;
    },
    entries() {
      const start = count < capacity ? 0 : next;
      const out: JournalEntry[] = [];
      for (let i = 0; i < count; i++) out.push(ring[(start + i) % capacity] as JournalEntry);
      return out;
    },
    size: () => count,
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
    },
  };
}
