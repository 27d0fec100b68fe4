import type { JournalCounts, JournalEntry, JournalSince } from '../../journal/request-journal.js';
import type { Journal } from '../mock-store.js';
import type { RedisConnection } from './redis-connection.js';
import { journalCounters } from './redis-keys.js';
import { APPEND, CLEAR, SINCE } from './session-scripts.js';

// What an entry's JSON starts with before it is appended: the APPEND script writes its seq there.
const UNNUMBERED = '{"seq":0,';

/**
 * A journal as a Redis list of entries' JSON, newest first, and a hash of
 * its counters (the last seq, the clears, its id, the counts by status and
 * operation): an append is one script (the
 * next seq, LPUSH, LTRIM to capacity, so it never holds more than
 * `capacity`), and its TTL refreshed with the session's ('0': the shared
 * default's and the anonymous journal, kept).
 */
export function redisJournal(redis: RedisConnection, key: string, capacity: number, ttl: string, session: { meta: string; base: string } = { meta: '', base: '' }): Journal {
  const counters = journalCounters(key);
  return {
    capacity,
    async append(entry) {
      const json = JSON.stringify(entry);
      if (!json.startsWith(UNNUMBERED)) throw new Error('a journal entry must have seq 0, first, until appended');
      await redis.script(APPEND, [key, json, String(capacity), ttl, session.meta, session.base, counters, String(entry.status), entry.operation ?? 'none']);
    },
    async entries() {
      return parsed((await redis.command(['LRANGE', key, '0', String(capacity - 1)])) as string[], 0);
    },
    async since(seq, max, allOrNone = false): Promise<JournalSince> {
      const reply = (await redis.script(SINCE, [key, counters, String(seq), String(max), ttl, session.meta, session.base, allOrNone ? '1' : '0'])) as [number, string[], ...string[]];
      const fields = fromCounters(reply[1]);
      const last = Number(fields.seq ?? 0);
      return {
        entries: parsed(reply as unknown as string[], 2),
        // A journal never appended to has no id yet: '' until its first entry.
        id: fields.id ?? '',
        counts: fields.counts,
        last,
        newer: Math.max(0, last - seq),
        cleared: Number(fields.cleared ?? 0),
        ended: reply[0] === 1 ? undefined : 'the session ended (idle, to make room for another, or by DELETE /__mock/sessions)',
      };
    },
    size: async () => Number(await redis.command(['LLEN', key])),
    async clear() {
      await redis.script(CLEAR, [key, counters, ttl, session.meta, session.base]);
    },
  };
}

/** The counters hash (HGETALL's flat list): seq, cleared, id, and the counts by status (`s:`) and operation (`o:`). */
function fromCounters(flat: readonly string[]): { seq?: string; cleared?: string; id?: string; counts: JournalCounts } {
  const out: { seq?: string; cleared?: string; id?: string; counts: JournalCounts } = { counts: { byStatus: {}, byOperation: {} } };
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [field, value] = [flat[i] as string, flat[i + 1] as string];
    if (field.startsWith('s:')) out.counts.byStatus[field.slice(2)] = Number(value);
    else if (field.startsWith('o:')) out.counts.byOperation[field.slice(2)] = Number(value);
    else if (field === 'seq' || field === 'cleared' || field === 'id') out[field] = value;
  }
  return out;
}

/** Entries' JSON from `from` on, newest first as Redis keeps them, as entries oldest first. */
function parsed(newestFirst: readonly string[], from: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let i = newestFirst.length - 1; i >= from; i--) entries.push(JSON.parse(newestFirst[i] as string) as JournalEntry);
  return entries;
}
