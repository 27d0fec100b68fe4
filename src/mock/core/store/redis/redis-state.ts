import { indexCatalogue, storedForm, type CatalogueIndex } from '../../catalogue/catalogue-index.js';
import { joinPage, meetsQuery, pagePart, type ListQuery } from '../../catalogue/catalogue-page.js';
import type { CatalogueLimits } from '../../catalogue/catalogue-limits.js';
import type { NewPet, Pet } from '../../catalogue/pet.js';
import { nameKey, startNameKeys } from '../../catalogue/name-keys.js';
import type { CompiledStub } from '../../scenarios/compile-stub.js';
import type { Scenario } from '../../scenarios/check-scenario.js';
import { createScenarioRuntime } from '../../scenarios/scenario-runtime.js';
import type { ScenarioState, StateCatalogue } from '../mock-store.js';
import type { RedisConnection, Reply } from './redis-connection.js';
import { SessionEnded } from '../session-ended.js';
import { stateKeys, type SessionKeys, type StateKeys } from './redis-keys.js';
import { pickFromReply, planPick } from './redis-pick.js';
import { CREATE, GET, PICK } from './state-scripts.js';

/** A session generation as the scripts address it. */
export interface SessionRef {
  /** null: the shared default. */
  id: string | null;
  keys: SessionKeys;
  gen: string;
  /** How long its keys live unused (ms, as text); '0': forever (the shared default). */
  ttl: string;
}

/** Where a state starts from, in the process: its scenario and start catalogue. */
export interface StateSource {
  /** '' for the session's start; else the scenario's name. */
  token: string;
  scenario: Scenario | undefined;
  path: string | undefined;
  pets: readonly Pet[];
}

/** The start token: what a session's start state is called on Redis (a scenario's name is never empty). */
export const START_TOKEN = '';

/** The arguments every state-writing script begins with (see state-scripts.ts). */
export const stateArgs = (ref: SessionRef, token: string): string[] => [ref.keys.meta, ref.keys.base, token, START_TOKEN, ref.ttl];

const NO_STUBS: readonly CompiledStub[] = Object.freeze([]);
/** Each scenario's stubs by operation, built once per loaded version. */
const byScenario = new WeakMap<Scenario, (operationId: string) => readonly CompiledStub[]>();
function stubsOf(scenario: Scenario | undefined): (operationId: string) => readonly CompiledStub[] {
  if (!scenario) return () => NO_STUBS;
  let stubsFor = byScenario.get(scenario);
  if (!stubsFor) byScenario.set(scenario, (stubsFor = createScenarioRuntime(scenario).stubsFor));
  return stubsFor;
}

/** One state of one session: its scenario from the process, its state, counts and additions on Redis. */
export function redisState(redis: RedisConnection, ref: SessionRef, source: StateSource, limits: CatalogueLimits): ScenarioState {
  const keys = stateKeys(ref.keys.base, source.token);
  const { scenario } = source;
  return {
    scenario,
    path: source.path,
    stubsFor: stubsOf(scenario),
    pick(stubs, request) {
      const plan = planPick(stubs, request);
      const args = [...stateArgs(ref, source.token), scenario?.initialState ?? '', ...plan.args];
      if ('local' in plan) {
        // Counted as the memory store counts it (health shows it); a lost count is no lost answer.
        if (plan.local.stub) redis.script(PICK, args).catch(() => undefined);
        return plan.local;
      }
      return redis.script(PICK, args).then((reply) => {
        if ((reply as Reply[])[0] === -1) throw new SessionEnded(ref.id);
        return pickFromReply(stubs, plan.mismatches, reply as Array<string | number>);
      });
    },
    state() {
      if (!scenario) return null;
      return redis.command(['HGET', keys.hash, 'state']).then((state) => (state === null ? scenario.initialState : String(state)));
    },
    calls() {
      const count = scenario?.stubs.length ?? 0;
      if (count === 0) return [];
      const fields = Array.from({ length: count }, (_, index) => `c:${index}`);
      return redis.command(['HMGET', keys.hash, ...fields]).then((counts) => (counts as Array<string | null>).map((value) => Number(value ?? 0)));
    },
    catalogue: redisCatalogue(redis, ref, source, keys, limits),
  };
}

/**
 * A page from the largest id: the additions (their ids all past the start
 * catalogue's, kept in id order in one list) read from its end, then the
 * start catalogue's part for what is left of the limit.
 */
function newestFirst(redis: RedisConnection, start: CatalogueIndex, keys: StateKeys, query: ListQuery): Promise<string> {
  const { limit, status, where } = query;
  const key = status === undefined ? keys.ordered : keys.status(status);
  // Other fields have no list on Redis: the additions (at most --max-pets) are read whole and filtered here.
  const read = where?.length
    ? redis.command(['LRANGE', key, '0', '-1']).then((added) => (added as string[]).filter((json) => meetsQuery(json, query)).slice(-limit))
    : redis.command(['LRANGE', key, String(-limit), '-1']).then((added) => added as string[]);
  return read.then((added) => joinPage(added.reverse().join(','), pagePart(start, limit - added.length, query).json));
}

function redisCatalogue(redis: RedisConnection, ref: SessionRef, source: StateSource, keys: StateKeys, limits: CatalogueLimits): StateCatalogue {
  const start = indexCatalogue(source.pets);
  return {
    listJson(query) {
      const { limit, status, where } = query;
      if (query.order === 'descending') return newestFirst(redis, start, keys, query);
      const first = pagePart(start, limit, query);
      // A page the start catalogue fills needs nothing from Redis.
      if (first.count === limit) return joinPage(first.json, '');
      const key = status === undefined ? keys.ordered : keys.status(status);
      const wanted = limit - first.count;
      // Other fields have no list on Redis: the additions (at most --max-pets) are read whole and filtered here.
      if (where?.length) return redis.command(['LRANGE', key, '0', '-1']).then((added) => joinPage(first.json, (added as string[]).filter((json) => meetsQuery(json, query)).slice(0, wanted).join(',')));
      return redis.command(['LRANGE', key, '0', String(wanted - 1)]).then((added) => joinPage(first.json, (added as string[]).join(',')));
    },
    getJson(id) {
      if (id <= start.lastId) return start.byId.get(id);
      // Additions' ids follow one another from the start's largest: never past 2^53, never fractional (and Redis reads neither as an index).
      if (!Number.isSafeInteger(id)) return undefined;
      return redis.script(GET, [keys.hash, keys.ordered, String(id)]).then((json) => (json === null ? undefined : String(json)));
    },
    create(newPet: NewPet, options) {
      const { json } = storedForm(newPet, 0);
      const rest = json.slice('{"id":0'.length);
      const refuse = options?.refuseTakenName === true;
      const limitArgs = [String(start.lastId), String(limits.maxPets), String(limits.maxBytes)];
      // The name as the memory store keys it (see nameKey). The start catalogue is in the process: whether it has the name is judged here, in O(1).
      const name = nameKey(json);
      const nameArgs = [name, refuse ? '1' : '0', refuse && startNameKeys(source.pets).has(name) ? '1' : '0'];
      const args = [...stateArgs(ref, source.token), newPet.status ?? '', rest, String(Buffer.byteLength(rest)), ...limitArgs, ...nameArgs];
      return redis.script(CREATE, args).then((reply) => {
        const [outcome, value] = reply as [string, string];
        if (outcome === 'taken') return { taken: true as const };
        if (outcome === 'full') return { full: value as 'pets' | 'bytes' };
        if (outcome === 'ended') throw new SessionEnded(ref.id);
        const stored = storedForm(newPet, Number(value));
        Object.freeze(stored.pet);
        return stored;
      });
    },
    count: () => redis.command(['LLEN', keys.ordered]).then((added) => start.ordered.length + Number(added)),
  };
}
