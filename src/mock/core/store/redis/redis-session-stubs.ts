import { compileSessionStubs, MAX_SESSION_STUBS, type CompiledSessionStubs, type SessionStub, type SessionStubs } from '../../session-stubs/session-stubs.js';
import { andThen } from '../maybe-promise.js';
import { SessionEnded } from '../session-ended.js';
import { luaScript, type RedisConnection } from './redis-connection.js';

/** The stubs' JSON array ('' none): ARGV the session's hash. */
const STUBS_OF = luaScript(`return sessionStubsJson(ARGV[1])`);

/**
 * Add: ARGV the session's hash, the stub's id, its JSON, the most a
 * session may hold, '1' when the session must still be running (not the
 * shared default, whose hash may not exist yet). Checks and writes in one
 * atomic step, so the bound holds however many processes add at once.
 * Returns 'added', 'taken', 'full' or 'ended'.
 */
const ADD = luaScript(`
if ARGV[5] == '1' and redis.call('EXISTS', ARGV[1]) == 0 then return 'ended' end
local order = redis.call('HGET', ARGV[1], 'stub-order') or ''
local count = 0
for id in string.gmatch(order, '[^\\n]+') do
  if id == ARGV[2] then return 'taken' end
  count = count + 1
end
if count >= tonumber(ARGV[4]) then return 'full' end
if order ~= '' then order = order .. '\\n' end
redis.call('HSET', ARGV[1], 'stub:' .. ARGV[2], ARGV[3], 'stub-order', order .. ARGV[2])
return 'added'
`);

/** Remove: ARGV the session's hash, the stub's id, '1' as for ADD. Returns 'removed', 'none' or 'ended'. */
const REMOVE = luaScript(`
if ARGV[3] == '1' and redis.call('EXISTS', ARGV[1]) == 0 then return 'ended' end
local kept, found = {}, false
for id in string.gmatch(redis.call('HGET', ARGV[1], 'stub-order') or '', '[^\\n]+') do
  if id == ARGV[2] then found = true else kept[#kept + 1] = id end
end
if not found then return 'none' end
redis.call('HSET', ARGV[1], 'stub-order', table.concat(kept, '\\n'))
redis.call('HDEL', ARGV[1], 'stub:' .. ARGV[2])
return 'removed'
`);

/** Compiled stubs by their JSON, shared by every session of one process: most requests find theirs here. */
export interface StubsCache {
  compiled(json: string): CompiledSessionStubs;
}

/**
 * Keeps compilations while their JSON takes at most `maxChars` in all (8 Mi
 * characters: about six sessions holding 20 stubs of 64 KiB, or thousands
 * of small ones), the oldest dropped first; a JSON larger than that is
 * compiled at each request and not kept. The bound is on the JSON, which
 * the compiled stubs' bodies are about as large as.
 */
export function stubsCache(maxChars = 8 * 1024 * 1024): StubsCache {
  const kept = new Map<string, CompiledSessionStubs>();
  let chars = 0;
  return {
    compiled(json) {
      const found = kept.get(json);
      if (found) return found;
      const made = compileSessionStubs(parse(json));
      if (json.length > maxChars) return made;
      for (const old of kept.keys()) {
        if (chars + json.length <= maxChars) break;
        kept.delete(old);
        chars -= old.length;
      }
      kept.set(json, made);
      chars += json.length;
      return made;
    },
  };
}

const parse = (json: string): SessionStub[] => (json === '' ? [] : (JSON.parse(json) as SessionStub[]));

/**
 * A session's stubs on Redis, in the session's hash (see redis-keys.ts),
 * so they end with the session, and the session's open reads them in the
 * same round trip (`known`); without it (the shared default, a session
 * found by the admin API) they are read when asked for. Adding and
 * removing are one atomic script each.
 */
export function redisSessionStubs(redis: RedisConnection, cache: StubsCache, session: { id: string | null; meta: string }, known: string | undefined): SessionStubs {
  // What this request's open read; dropped once this request changes them, so it reads what it wrote.
  let snapshot = known;
  const read = (): string | Promise<string> => snapshot ?? redis.script(STUBS_OF, [session.meta]).then(String);
  const mustRun = session.id === null ? '0' : '1';
  const changed = (reply: unknown): string => {
    if (reply === 'ended') throw new SessionEnded(session.id);
    snapshot = undefined;
    return String(reply);
  };
  return {
    list: () => andThen(read(), parse),
    compiled: () => andThen(read(), (json) => cache.compiled(json)),
    async add(stub) {
      const reply = changed(await redis.script(ADD, [session.meta, stub.id, JSON.stringify(stub), String(MAX_SESSION_STUBS), mustRun]));
      return reply === 'added' ? undefined : (reply as 'full' | 'taken');
    },
    async remove(id) {
      return changed(await redis.script(REMOVE, [session.meta, id, mustRun])) === 'removed';
    },
  };
}
