import { compileSessionStubs, MAX_SESSION_STUBS, type CompiledSessionStubs, type SessionStub, type SessionStubs } from '../../session-stubs/session-stubs.js';
import { andThen } from '../maybe-promise.js';
import { SessionEnded } from '../session-ended.js';
import { luaScript, type RedisConnection } from './redis-connection.js';

/**
 * Compare and set: ARGV the session's hash, the stubs' JSON as read, the
 * new JSON, '1' when the session must still be running (not the shared
 * default, whose hash may not exist yet). Returns 1 set, 0 changed since
 * read (by another request, in any process: read again), -1 ended.
 */
const SET_STUBS = luaScript(`
if ARGV[4] == '1' and redis.call('EXISTS', ARGV[1]) == 0 then return -1 end
local now = redis.call('HGET', ARGV[1], 'stubs') or ''
if now ~= ARGV[2] then return 0 end
redis.call('HSET', ARGV[1], 'stubs', ARGV[3])
return 1
`);

/** How many times a change is tried again when other changes keep coming between its read and its write. */
const ATTEMPTS = 8;

/** Compiled stubs by their JSON, shared by every session of one process: most requests find theirs here. */
export interface StubsCache {
  compiled(json: string): CompiledSessionStubs;
}

/** At most `size` compilations kept, the oldest dropped first. */
export function stubsCache(size = 256): StubsCache {
  const kept = new Map<string, CompiledSessionStubs>();
  return {
    compiled(json) {
      const found = kept.get(json);
      if (found) return found;
      const made = compileSessionStubs(parse(json));
      if (kept.size >= size) kept.delete(kept.keys().next().value as string);
      kept.set(json, made);
      return made;
    },
  };
}

const parse = (json: string): SessionStub[] => (json === '' ? [] : (JSON.parse(json) as SessionStub[]));

/**
 * A session's stubs on Redis: one JSON array in the session's hash
 * (`stubs`), so they end with the session and the session's open reads
 * them in the same round trip (`known`); without it (the shared default)
 * each request reads them. A change reads, checks and writes back only if
 * nothing changed meanwhile, so the bound holds across processes.
 */
export function redisSessionStubs(redis: RedisConnection, cache: StubsCache, session: { id: string | null; meta: string }, known: string | undefined): SessionStubs {
  let snapshot = known;
  const read = (): string | Promise<string> => snapshot ?? redis.command(['HGET', session.meta, 'stubs']).then((json) => (json === null ? '' : String(json)));

  async function change<T>(edit: (stubs: SessionStub[]) => { next: SessionStub[] } | { result: T }, done: T): Promise<T> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const json = String(await redis.command(['HGET', session.meta, 'stubs']) ?? '');
      const edited = edit(parse(json));
      if ('result' in edited) return edited.result;
      const next = edited.next.length === 0 ? '' : JSON.stringify(edited.next);
      const set = await redis.script(SET_STUBS, [session.meta, json, next, session.id === null ? '0' : '1']);
      if (set === -1) throw new SessionEnded(session.id);
      if (set === 1) {
        snapshot = next;
        return done;
      }
    }
    throw new Error(`the stubs of session ${session.id ?? '(shared)'} kept changing while this change was made`);
  }

  return {
    list: () => andThen(read(), parse),
    compiled: () => andThen(read(), (json) => cache.compiled(json)),
    add: (stub) =>
      change<'full' | 'taken' | undefined>((stubs) => {
        if (stubs.some((s) => s.id === stub.id)) return { result: 'taken' };
        if (stubs.length >= MAX_SESSION_STUBS) return { result: 'full' };
        return { next: [...stubs, stub] };
      }, undefined),
    remove: (id) =>
      change<boolean>((stubs) => {
        const kept = stubs.filter((s) => s.id !== id);
        return kept.length === stubs.length ? { result: false } : { next: kept };
      }, true),
  };
}
