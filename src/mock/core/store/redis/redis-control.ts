import { errorBody } from '../../errors.js';
import { ok, type Result } from '../../result.js';
import type { ScenarioLibrary } from '../../scenarios/scenario-library.js';
import type { MaybePromise } from '../maybe-promise.js';
import { andThen } from '../maybe-promise.js';
import type { ScenarioControl, ScenarioState, StateSummary } from '../mock-store.js';
import type { RedisConnection, Script } from './redis-connection.js';
import { optional } from './redis-pick.js';
import { redisState, START_TOKEN, stateArgs, type SessionRef, type StateSource } from './redis-state.js';
import type { ScenarioVersions } from './scenario-versions.js';
import { SessionEnded } from '../session-ended.js';
import { ACTIVATE, NOTE, RESET, RESET_SCENARIO } from './state-scripts.js';

/** What every session's control shares in one process. */
export interface ControlContext {
  redis: RedisConnection;
  library: ScenarioLibrary;
  versions: ScenarioVersions;
  /** Activations under way in this process, by session: of those that load, the one started last wins (as in memory). */
  tickets: Map<string, { taken: number; applied: number; pending: number }>;
}

/**
 * The scenarios of one session on Redis. `known` is the active token the
 * request's open (or find) read from Redis, so the request does not ask
 * again; without it (the shared default) each call reads it. Either way a
 * process learns an activation made elsewhere at its next request.
 */
export function redisControl(context: ControlContext, ref: SessionRef, known: string | undefined): ScenarioControl {
  const { redis, library, versions } = context;
  let snapshot = known;
  const activeToken = (): MaybePromise<string> =>
    snapshot ?? redis.command(['HGET', ref.keys.meta, 'active']).then((token) => (token === null ? START_TOKEN : String(token)));
  const stateFrom = (source: StateSource): ScenarioState => redisState(redis, ref, source, library.catalogueLimits);
  const sourceOrStart = (token: string): MaybePromise<StateSource> =>
    andThen(versions.sourceOf(token), (source) => {
      // The active scenario's file went away or broke here since another process activated it: the start serves.
      return source.ok ? source.value : versions.start();
    });
  const sessionArgs = (): string[] => [ref.keys.meta, ref.keys.base, START_TOKEN, ref.gen, ref.id === null ? '1' : '0'];
  const runControl = (script: Script, more: string[]): Promise<unknown> => redis.script(script, [...sessionArgs(), ...more]);
  const summary = (source: StateSource): StateSummary => ({
    scenario: source.scenario?.name ?? null,
    pets: source.pets.length,
    state: source.scenario ? source.scenario.initialState : null,
  });

  return {
    scenarios: library.source,
    limits: library.catalogueLimits,
    active: () => andThen(andThen(activeToken(), sourceOrStart), stateFrom),
    stateOf(name) {
      return andThen(activeToken(), (token): MaybePromise<Result<ScenarioState>> => {
        if (name === versions.nameOf(token)) return andThen(sourceOrStart(token), (source) => ok(stateFrom(source)));
        return andThen(versions.sourceOf(name), async (source) => {
          if (!source.ok) return source;
          if ((await redis.script(NOTE, stateArgs(ref, name))) === 0) throw new SessionEnded(ref.id);
          return ok(stateFrom(source.value));
        });
      });
    },
    async activate(name) {
      const key = ref.keys.meta;
      const tickets = context.tickets.get(key) ?? { taken: 0, applied: 0, pending: 0 };
      context.tickets.set(key, tickets);
      const mine = ++tickets.taken;
      tickets.pending++;
      try {
        const loaded = await library.load(name);
        if (!loaded.ok) return loaded;
        if (mine < tickets.applied) return { ok: false, error: errorBody('activation_superseded', `scenario ${name} loaded after an activation started later than it, which stays`) };
        tickets.applied = mine;
        versions.remember(loaded.value);
        if ((await runControl(ACTIVATE, [name])) === null) throw new SessionEnded(ref.id);
        snapshot = snapshot === undefined ? undefined : name;
        return { ok: true, value: loaded.value.scenario };
      } finally {
        if (--tickets.pending === 0) context.tickets.delete(key);
      }
    },
    async reset() {
      const reply = await runControl(RESET, []);
      const token = reply === null ? START_TOKEN : String(reply);
      versions.forgetAllBut(token);
      return summary(await sourceOrStart(token));
    },
    async resetScenario(name) {
      const token = await runControl(RESET_SCENARIO, [name, optional(versions.startName())]);
      if (token === null) return undefined;
      const source = await versions.sourceOf(String(token));
      return source.ok ? summary(source.value) : undefined;
    },
  };
}
