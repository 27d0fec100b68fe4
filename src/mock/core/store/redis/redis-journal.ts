import type { JournalEntry, JournalSince } from '../../journal/request-journal.js';
import type { Journal } from '../mock-store.js';
import type { RedisConnection } from './redis-connection.js';
import { journalCounters } from './redis-keys.js';
import { APPEND, CLEAR, SINCE } from './session-scripts.js';

// What an entry's JSON starts with before it is appended: the APPEND script writes its seq there.
const UNNUMBERED = '{"seq":0,';

/**
 * A journal as a Redis list of entries' JSON, newest first, and a hash of
 * its counters (the last seq, the clears): an append is one script (the
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
      await redis.script(APPEND, [key, json, String(capacity), ttl, session.meta, session.base, counters]);
    },
    async entries() {
      return parsed((await redis.command(['LRANGE', key, '0', String(capacity - 1)])) as string[], 0);
    },
    async since(seq, max): Promise<JournalSince> {
      const reply = (await redis.script(SINCE, [key, counters, String(seq), String(max), ttl, session.meta, session.base])) as Array<string | number>;
      const last = Number(reply[1]);
      return {
        entries: parsed(reply as string[], 3),
        last,
        newer: Math.max(0, last - seq),
        cleared: Number(reply[2]),
        ended: reply[0] === 1 ? undefined : 'the session ended (idle, to make room for another, or by DELETE /__mock/sessions)',
      };
    },
    size: async () => Number(await redis.command(['LLEN', key])),
    async clear() {
      await redis.script(CLEAR, [key, counters, ttl, session.meta, session.base]);
    },
  };
}

/** Entries' JSON from `from` on, newest first as Redis keeps them, as entries oldest first. */
function parsed(newestFirst: readonly string[], from: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let i = newestFirst.length - 1; i >= from; i--) entries.push(JSON.parse(newestFirst[i] as string) as JournalEntry);
  return entries;
}
