/**
 * Key names on Redis, built the same way here and in the Lua scripts (the
 * LUA_KEYS prelude every script starts with). Every key starts with
 * `prefix:`. A session id or a scenario name is written as its UTF-8 byte
 * length, `:`, then itself, so an id holding `:` (allowed in session ids)
 * can never make one session's keys look like another's: `s:3:a:b:…` is
 * session `a:b`, `s:1:a:…` session `a`.
 *
 * Layout (P the prefix, S a session's part, G its generation):
 *   P:sessions                  sorted set: running session ids, scored by last use (ms, Redis TIME)
 *   P:gen                       counter: a new generation for each session started
 *   P:anon                      list: the anonymous journal (JSON, newest first)
 *   P:anon:q                    hash: its counters: seq (the last entry's), cleared (how many times emptied), id (set by the first append), s:STATUS and o:OPERATION (entries appended, by status and operation)
 *   P:secret                    string: the secret key sessions' ids are made with, one for every process (SET NX)
 *   P:s:S                       hash: the session: gen, owner, active (the active state's token), stub:ID (each of its session stubs' JSON), stub-order (their ids in the order added)
 *   P:shared                    hash: the shared default's: active, stub:ID, stub-order (its generation is always 0)
 *   P:s:S:G:j                   list: its journal (JSON, newest first)
 *   P:s:S:G:j:q                 hash: its journal's counters, as P:anon:q
 *   P:s:S:G:n                   set: tokens of the other states it has (started by Prefer: scenario=)
 *   P:s:S:G:t:T:h               hash: a state's scenario state, call counts (c:INDEX), next id, pets, bytes
 *   P:s:S:G:t:T:o               list: that state's additions' JSON, in id order
 *   P:s:S:G:t:T:s:STATUS        list: the same, one list per status
 *   P:s:S:G:t:T:names           set: that state's additions' names, each as its JSON string (a create may refuse a taken one)
 *
 * The shared default has keys of its own (P:shared, P:shared:0:…), no
 * TTL, and is not in the sessions' table. A session's generation is
 * new each time it starts, so keys a request wrote to a session that ended
 * meanwhile (they expire by TTL) are never read as a later session's.
 * A state's token is its scenario's name, or the empty string for the
 * state a session starts with (the start scenario and catalogue).
 *
 * Scripts build keys from these parts, so the store needs one Redis, not
 * Redis Cluster (whose scripts must name every key they touch up front).
 */
const PET_STATUSES = ['available', 'pending', 'sold'] as const;

const part = (text: string): string => `${Buffer.byteLength(text)}:${text}`;

export interface SessionKeys {
  /** The session's hash: gen, owner, active, its stubs. */
  meta: string;
  /** What every other key of this generation starts with. */
  base: string;
  journal: string;
  names: string;
}

export function sessionKeys(prefix: string, id: string, gen: string): SessionKeys {
  return keysFrom(`${prefix}:s:${part(id)}`, gen);
}

/** The shared default's: apart from every session's (`s:`), whatever its id, the empty one included. */
export const sharedKeys = (prefix: string): SessionKeys => keysFrom(`${prefix}:shared`, '0');

function keysFrom(meta: string, gen: string): SessionKeys {
  const base = `${meta}:${gen}`;
  return { meta, base, journal: `${base}:j`, names: `${base}:n` };
}

export interface StateKeys {
  hash: string;
  ordered: string;
  /** The list of one status's additions. */
  status(status: string): string;
}

export function stateKeys(sessionBase: string, token: string): StateKeys {
  const base = `${sessionBase}:t:${part(token)}`;
  return { hash: `${base}:h`, ordered: `${base}:o`, status: (status) => `${base}:s:${status}` };
}

export const anonymousKey = (prefix: string): string => `${prefix}:anon`;

/** A journal's counters (seq, cleared) beside its list: its key and `:q`. */
export const journalCounters = (journal: string): string => `${journal}:q`;

/**
 * The same names in Lua (`#text` is the byte length, as Buffer.byteLength
 * above), and what the scripts do with a whole state or session: delete
 * it, or refresh its TTL (ttl '0': the shared default, kept forever).
 */
export const LUA_KEYS = `
local STATUSES = {${PET_STATUSES.map((status) => `'${status}'`).join(', ')}}
local function part(text) return #text .. ':' .. text end
local function sessionMeta(prefix, id) return prefix .. ':s:' .. part(id) end
local function stateBase(sessionBase, token) return sessionBase .. ':t:' .. part(token) end
local function stateKeyList(sessionBase, token)
  local base = stateBase(sessionBase, token)
  local keys = {base .. ':h', base .. ':o', base .. ':names'}
  for _, status in ipairs(STATUSES) do keys[#keys + 1] = base .. ':s:' .. status end
  return keys
end
local function deleteState(sessionBase, token)
  redis.call('DEL', unpack(stateKeyList(sessionBase, token)))
end
local function expire(key, ttl)
  if ttl ~= '0' then redis.call('PEXPIRE', key, ttl) end
end
-- Whether the session generation at base is still the running one (the shared default, ttl '0', always is):
-- a request that opened a session which ended meanwhile must not write keys nobody counts or reads.
local function running(meta, base, ttl)
  if ttl == '0' then return true end
  local gen = redis.call('HGET', meta, 'gen')
  return gen ~= false and base == meta .. ':' .. gen
end
-- The tokens of every state of a session generation: the active one and the others.
local function stateTokens(sessionBase, active)
  local tokens = redis.call('SMEMBERS', sessionBase .. ':n')
  tokens[#tokens + 1] = active
  return tokens
end
-- Every key of a session generation: its journal and its counters, its names, and each state's keys.
local function sessionKeyList(sessionBase, active)
  local keys = {sessionBase .. ':j', sessionBase .. ':j:q', sessionBase .. ':n'}
  for _, token in ipairs(stateTokens(sessionBase, active)) do
    for _, key in ipairs(stateKeyList(sessionBase, token)) do keys[#keys + 1] = key end
  end
  return keys
end
-- Ends a session: deletes every key of its running generation, and its place in the table. False: none was running.
local function endSession(prefix, id)
  local meta = sessionMeta(prefix, id)
  local found = redis.call('HMGET', meta, 'gen', 'active')
  redis.call('ZREM', prefix .. ':sessions', id)
  if found[1] == false then return false end
  for _, key in ipairs(sessionKeyList(meta .. ':' .. found[1], found[2])) do redis.call('DEL', key) end
  redis.call('DEL', meta)
  return true
end
-- A session's stubs as one JSON array ('' none), in the order added: each is kept as written in its hash's
-- field stub:ID, the order in stub-order (ids joined by newlines; an id is kebab-case, so holds none).
local function sessionStubsJson(meta)
  local order = redis.call('HGET', meta, 'stub-order')
  if not order or order == '' then return '' end
  local parts = {}
  for id in string.gmatch(order, '[^\\n]+') do
    local json = redis.call('HGET', meta, 'stub:' .. id)
    if json then parts[#parts + 1] = json end
  end
  return '[' .. table.concat(parts, ',') .. ']'
end
-- Redis's clock in ms: one clock for every process.
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- A state written to that is not the active one is one of the session's others, so a reset or an end finds it.
local function noteState(meta, names, token, defaultActive, ttl)
  local active = redis.call('HGET', meta, 'active')
  if active == false then active = defaultActive end
  if active ~= token then
    redis.call('SADD', names, token)
    expire(names, ttl)
  end
end
`;
