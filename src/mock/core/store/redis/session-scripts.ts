import { luaScript } from './redis-connection.js';

/**
 * The session table's atomic steps. Scripts run one at a time on Redis, so
 * two processes opening sessions at once never both take the last place,
 * and --max-sessions holds across every process.
 */

/**
 * Open: ARGV prefix, id, owner ('-' none, '=' then the owner), idleMs,
 * protectMs, maxSessions, start token, the process's secret (hex). The
 * secret is checked first, in the same atomic step: gone (FLUSHALL, a
 * restart without persistence), this process's is put back; another
 * (another process put its own back first), nothing is done and it is
 * returned as {'secret', hex}, so the caller adopts it and makes a key's
 * session id again. A running session is touched (its
 * score and every key's TTL); a new one ends least recently used sessions
 * while the table is full and they are past the protection window.
 * Returns {'ok', gen, owner, active, stubs (its stubs' JSON, '' none), evicted ids…},
 * {'full', retryAfterMs} or {'secret', hex}.
 */
export const OPEN = luaScript(`
local prefix, id, owner = ARGV[1], ARGV[2], ARGV[3]
local idle, protect, max = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local sessions = prefix .. ':sessions'
local secret = redis.call('GET', prefix .. ':secret')
if not secret then
  redis.call('SET', prefix .. ':secret', ARGV[8])
elseif secret ~= ARGV[8] then
  return {'secret', secret}
end
local now = nowMs()
-- Sessions idle past idleMs have expired by TTL; their places go lazily, here.
redis.call('ZREMRANGEBYSCORE', sessions, '-inf', now - idle)
local meta = sessionMeta(prefix, id)
local found = redis.call('HMGET', meta, 'gen', 'owner', 'active')
if found[1] then
  redis.call('ZADD', sessions, now, id)
  redis.call('PEXPIRE', meta, idle)
  for _, key in ipairs(sessionKeyList(meta .. ':' .. found[1], found[3])) do redis.call('PEXPIRE', key, idle) end
  return {'ok', found[1], found[2], found[3], sessionStubsJson(meta)}
end
redis.call('ZREM', sessions, id)
local evicted = {}
while redis.call('ZCARD', sessions) >= max do
  local oldest = redis.call('ZRANGE', sessions, 0, 0, 'WITHSCORES')
  local protectedFor = tonumber(oldest[2]) + protect - now
  if protectedFor > 0 then return {'full', string.format('%d', protectedFor)} end
  endSession(prefix, oldest[1])
  evicted[#evicted + 1] = oldest[1]
end
local gen = string.format('%d', redis.call('INCR', prefix .. ':gen'))
redis.call('HSET', meta, 'gen', gen, 'owner', owner, 'active', ARGV[7])
redis.call('PEXPIRE', meta, idle)
redis.call('ZADD', sessions, now, id)
return {'ok', gen, owner, ARGV[7], '', unpack(evicted)}
`);

/** End: ARGV prefix, id. Returns 1, or 0 when none was running. */
export const END = luaScript(`
if endSession(ARGV[1], ARGV[2]) then return 1 end
return 0
`);

/**
 * List: ARGV prefix, idleMs. The running sessions, least recently used
 * first, as {now, then per session: id, last use, owner, active token,
 * journal entries, active state's additions}.
 */
export const LIST = luaScript(`
local prefix = ARGV[1]
local sessions = prefix .. ':sessions'
local now = nowMs()
redis.call('ZREMRANGEBYSCORE', sessions, '-inf', now - tonumber(ARGV[2]))
local out = {string.format('%d', now)}
local running = redis.call('ZRANGE', sessions, 0, -1, 'WITHSCORES')
for i = 1, #running, 2 do
  local id = running[i]
  local meta = sessionMeta(prefix, id)
  local found = redis.call('HMGET', meta, 'gen', 'owner', 'active')
  if found[1] == false then
    redis.call('ZREM', sessions, id)
  else
    local base = meta .. ':' .. found[1]
    out[#out + 1] = id
    out[#out + 1] = running[i + 1]
    out[#out + 1] = found[2]
    out[#out + 1] = found[3]
    out[#out + 1] = redis.call('LLEN', base .. ':j')
    out[#out + 1] = redis.call('LLEN', stateBase(base, found[3]) .. ':o')
  end
end
return out
`);

/**
 * Journal append: ARGV key, entry JSON (starting `{"seq":0,`), capacity,
 * ttl, the session's hash and key base, the journal's counters, the
 * entry's status and operation (`none`: no operation). The entry gets the
 * next seq (HINCRBY, so never reused while the counters live), written
 * into its JSON; newest first, trimmed to capacity; nothing for a session
 * that ended meanwhile. The counters also count it by status (`s:200`) and
 * operation (`o:listPets`), so a stream's summary reads one hash, not the
 * entries; and the first append names the journal (`id`, Redis's clock in
 * µs), so a journal made again under the same key is told apart.
 */
export const APPEND = luaScript(`
if not running(ARGV[5], ARGV[6], ARGV[4]) then return 0 end
local seq = redis.call('HINCRBY', ARGV[7], 'seq', 1)
if seq == 1 then
  local t = redis.call('TIME')
  redis.call('HSETNX', ARGV[7], 'id', t[1] .. string.format('%06d', tonumber(t[2])))
end
redis.call('HINCRBY', ARGV[7], 's:' .. ARGV[8], 1)
redis.call('HINCRBY', ARGV[7], 'o:' .. ARGV[9], 1)
redis.call('LPUSH', ARGV[1], '{"seq":' .. string.format('%d', seq) .. string.sub(ARGV[2], 9))
redis.call('LTRIM', ARGV[1], 0, tonumber(ARGV[3]) - 1)
expire(ARGV[1], ARGV[4])
expire(ARGV[7], ARGV[4])
return 1
`);

/**
 * Journal since: ARGV key, counters, after (a seq), max, ttl, the
 * session's hash and key base, all-or-none ('1': no entry when more than
 * max are newer). The list holds consecutive seqs, the newest (the
 * counters' seq) first, so those above `after` are its first
 * `seq - after` items: LRANGE reads just those, at most `max`.
 * Returns {running 1/0, the counters hash as HGETALL's flat list, entries' JSON newest first…}.
 */
export const SINCE = luaScript(`
local counters = redis.call('HGETALL', ARGV[2])
local last = 0
for i = 1, #counters, 2 do
  if counters[i] == 'seq' then last = tonumber(counters[i + 1]) end
end
local out = {running(ARGV[6], ARGV[7], ARGV[5]) and 1 or 0, counters}
local newer = last - tonumber(ARGV[3])
local take = math.min(newer, tonumber(ARGV[4]))
if ARGV[8] == '1' and newer > tonumber(ARGV[4]) then take = 0 end
if take > 0 then
  for _, entry in ipairs(redis.call('LRANGE', ARGV[1], 0, take - 1)) do out[#out + 1] = entry end
end
return out
`);

/** Journal clear: ARGV key, counters, ttl, the session's hash and key base. Empties it, counting the clear (seqs go on). */
export const CLEAR = luaScript(`
if not running(ARGV[4], ARGV[5], ARGV[3]) then return 0 end
redis.call('DEL', ARGV[1])
redis.call('HINCRBY', ARGV[2], 'cleared', 1)
expire(ARGV[2], ARGV[3])
return 1
`);
