import type { JournalEntry } from '../../journal/request-journal.js';
import type { Journal } from '../mock-store.js';
import type { RedisConnection } from './redis-connection.js';
import { APPEND } from './session-scripts.js';

/**
 * A journal as a Redis list of entries' JSON, newest first: an append is
 * one LPUSH and an LTRIM to capacity in one script (so it never holds more
 * than `capacity`), and its TTL refreshed with the session's ('0': the
 * shared default's and the anonymous journal, kept).
 */
export function redisJournal(redis: RedisConnection, key: string, capacity: number, ttl: string, session: { meta: string; base: string } = { meta: '', base: '' }): Journal {
  return {
    capacity,
    async append(entry) {
      await redis.script(APPEND, [key, JSON.stringify(entry), String(capacity), ttl, session.meta, session.base]);
    },
    async entries() {
      const newestFirst = (await redis.command(['LRANGE', key, '0', String(capacity - 1)])) as string[];
      const entries: JournalEntry[] = [];
      for (let i = newestFirst.length - 1; i >= 0; i--) entries.push(JSON.parse(newestFirst[i] as string) as JournalEntry);
      return entries;
    },
    size: async () => Number(await redis.command(['LLEN', key])),
    async clear() {
      await redis.command(['DEL', key]);
    },
  };
}
