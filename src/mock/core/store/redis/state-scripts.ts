import { luaScript } from './redis-connection.js';

/**
 * The scenario states' atomic steps. Every script that writes a state
 * takes the same first five arguments (see StateArgs in redis-state.ts):
 * the session's hash, its generation's key base, the state's token, the
 * token active when the hash has none (the shared default's start), and
 * the TTL to keep its keys for ('0': forever).
 */

/**
 * Pick: then the initial state, the number of stubs, and per stub: index,
 * requiredState ('-' none, '=' then it), whether its match fits ('1'/'0'),
 * calls every, first, after ('' when unset), newState ('-' or '=' then it).
 * In one step: the state is read; each stub whose requiredState and match
 * fit counts the call; the first whose calls fit wins and its newState
 * applies. Returns {state, winner (1-based, 0: none), each tried stub's count},
 * or {-1} when the session ended meanwhile (nothing counted; a state is a string).
 */
export const PICK = luaScript(`
if not running(ARGV[1], ARGV[2], ARGV[5]) then return {-1} end
local hash = stateBase(ARGV[2], ARGV[3]) .. ':h'
local state = redis.call('HGET', hash, 'state')
if state == false then state = ARGV[6] end
local out = {state, 0}
local counted = false
for i = 0, tonumber(ARGV[7]) - 1 do
  local b = 8 + i * 7
  local required, count = ARGV[b + 1], 0
  if (required == '-' or string.sub(required, 2) == state) and ARGV[b + 2] == '1' then
    count = redis.call('HINCRBY', hash, 'c:' .. ARGV[b], 1)
    counted = true
    local every, first, after = tonumber(ARGV[b + 3]), tonumber(ARGV[b + 4]), tonumber(ARGV[b + 5])
    if (every == nil or count % every == 0) and (first == nil or count <= first) and (after == nil or count > after) then
      if ARGV[b + 6] ~= '-' then redis.call('HSET', hash, 'state', string.sub(ARGV[b + 6], 2)) end
      out[2] = i + 1
      out[#out + 1] = count
      break
    end
  end
  out[#out + 1] = count
end
if counted then
  expire(hash, ARGV[5])
  noteState(ARGV[1], ARGV[2] .. ':n', ARGV[3], ARGV[4], ARGV[5])
end
return out
`);

/**
 * Create: then the status ('' none), the stored JSON after its id
 * (\`{"id":\` + id + this), that part's UTF-8 bytes, the start
 * catalogue's largest id, maxPets, maxBytes, the name's JSON text (nameKey),
 * whether to refuse a taken name ('1'/'0'), and whether the start catalogue
 * (in the process) has the name ('1'/'0', judged only when refusing). The
 * budget is over every state of the session; the id is the state's counter
 * plus one (from the start catalogue's largest), taken only when the
 * animal is stored. Every stored name joins the state's set of names, so
 * the check and the add are one step: of two processes creating one name
 * at once with the refusal, one stores it and the other is refused. The
 * set grows only with the additions, so the catalogue's limits bound it:
 * at most maxPets names a session, their bytes within its maxBytes of JSON.
 * Returns {'ok', id}, {'taken'}, {'full', 'pets' | 'bytes'}, or {'ended'}
 * when the session ended meanwhile (nothing stored but on 'ok').
 */
export const CREATE = luaScript(`
if not running(ARGV[1], ARGV[2], ARGV[5]) then return {'ended'} end
local base = stateBase(ARGV[2], ARGV[3])
local hash = base .. ':h'
local names = base .. ':names'
if ARGV[13] == '1' and (ARGV[14] == '1' or redis.call('SISMEMBER', names, ARGV[12]) == 1) then return {'taken'} end
local active = redis.call('HGET', ARGV[1], 'active')
if active == false then active = ARGV[4] end
local tokens = stateTokens(ARGV[2], active)
tokens[#tokens + 1] = ARGV[3]
local seen, pets, bytes = {}, 0, 0
for _, token in ipairs(tokens) do
  if not seen[token] then
    seen[token] = true
    local used = redis.call('HMGET', stateBase(ARGV[2], token) .. ':h', 'pets', 'bytes')
    pets = pets + (tonumber(used[1]) or 0)
    bytes = bytes + (tonumber(used[2]) or 0)
  end
end
local id = tonumber(redis.call('HGET', hash, 'next') or ARGV[9]) + 1
local idText = string.format('%d', id)
local size = 6 + #idText + tonumber(ARGV[8])
if pets >= tonumber(ARGV[10]) then return {'full', 'pets'} end
if bytes + size > tonumber(ARGV[11]) then return {'full', 'bytes'} end
local json = '{"id":' .. idText .. ARGV[7]
redis.call('HSET', hash, 'next', idText)
if redis.call('HINCRBY', hash, 'pets', 1) == 1 then redis.call('HSET', hash, 'first', idText) end
redis.call('HINCRBY', hash, 'bytes', size)
redis.call('RPUSH', base .. ':o', json)
redis.call('SADD', names, ARGV[12])
expire(hash, ARGV[5])
expire(base .. ':o', ARGV[5])
expire(names, ARGV[5])
if ARGV[6] ~= '' then
  redis.call('RPUSH', base .. ':s:' .. ARGV[6], json)
  expire(base .. ':s:' .. ARGV[6], ARGV[5])
end
noteState(ARGV[1], ARGV[2] .. ':n', ARGV[3], ARGV[4], ARGV[5])
return {'ok', idText}
`);

/** Get: ARGV the state's hash, its ordered list, an id past the start catalogue's. Additions' ids follow one another from 'first'. */
export const GET = luaScript(`
local first = tonumber(redis.call('HGET', ARGV[1], 'first'))
if first == nil then return false end
local index = tonumber(ARGV[3]) - first
if index < 0 then return false end
return redis.call('LINDEX', ARGV[2], index)
`);

/** Note: a state started by Prefer: scenario= is one of the session's others from now on. */
export const NOTE = luaScript(`
if not running(ARGV[1], ARGV[2], ARGV[5]) then return 0 end
noteState(ARGV[1], ARGV[2] .. ':n', ARGV[3], ARGV[4], ARGV[5])
return 1
`);

/*
 * The control's steps take the session's hash, its key base, the default
 * active token, the generation the caller knows and whether it is the
 * shared default: a step for a session that ended (or ended and started
 * again) meanwhile changes nothing and returns false.
 */
const SAME_SESSION = `
local meta, base = ARGV[1], ARGV[2]
if ARGV[5] ~= '1' and redis.call('HGET', meta, 'gen') ~= ARGV[4] then return false end
local active = redis.call('HGET', meta, 'active')
if active == false then active = ARGV[3] end
`;

/** Activate: then the new token. The previous active state and any state of that name end; the new one starts fresh. */
export const ACTIVATE = luaScript(`${SAME_SESSION}
deleteState(base, active)
deleteState(base, ARGV[6])
redis.call('SREM', base .. ':n', ARGV[6])
redis.call('HSET', meta, 'active', ARGV[6])
return 1
`);

/** Reset: every state back to its start (deleted), the others forgotten; returns the active token. */
export const RESET = luaScript(`${SAME_SESSION}
for _, token in ipairs(stateTokens(base, active)) do deleteState(base, token) end
redis.call('DEL', base .. ':n')
return active
`);

/**
 * Reset one scenario: then its name, and the start scenario's name ('-'
 * none, '=' then it). The active state when that is the name's, else the
 * other state of that name; returns its token, or false when it has none.
 */
export const RESET_SCENARIO = luaScript(`${SAME_SESSION}
local name, token = ARGV[6], nil
if active == name or (active == '' and ARGV[7] == '=' .. name) then
  token = active
elseif redis.call('SISMEMBER', base .. ':n', name) == 1 then
  token = name
else
  return false
end
deleteState(base, token)
return token
`);
