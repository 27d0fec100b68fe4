import { ok, type Result } from '../../result.js';
import type { ScenarioStart } from '../mock-store.js';
import type { LoadedScenario, ScenarioLibrary } from '../../scenarios/scenario-library.js';
import type { MaybePromise } from '../maybe-promise.js';
import { START_TOKEN, type StateSource } from './redis-state.js';

/**
 * What this process serves each state from: the start scenario and
 * catalogue, and the version of each scenario it has used (by name).
 * Scenario files stay in the process; Redis holds only what requests
 * change, under the state's token. A version is kept once used, as the
 * memory store keeps its states' versions, and a hot reload replaces it
 * (the state kept on Redis stays: see docs/deployment.md). At most one a scenario file.
 */
export interface ScenarioVersions {
  /** The source of the session's start state. */
  start(): StateSource;
  /** The start scenario's name, if it has one. */
  startName(): string | undefined;
  /** The scenario's name of a token: the start's for the start token. */
  nameOf(token: string): string | undefined;
  /** The source of a state by its token: the start's, or that scenario's version (read on first use). */
  sourceOf(token: string): MaybePromise<Result<StateSource>>;
  /** A version just loaded (an activation): it serves from now on. */
  remember(loaded: LoadedScenario): void;
  replace(loaded: LoadedScenario): void;
  /**
   * After a reset: every version but `token`'s is read again on its next
   * use, so a file edited under --no-watch applies to the states a reset
   * dropped, as in memory (where a reset drops the preferred states). This
   * process's versions are every session's, so other sessions' next
   * requests read the file again too: the same file, unless it was edited.
   */
  forgetAllBut(token: string): void;
  paths(): Set<string>;
}

export function scenarioVersions(library: ScenarioLibrary, first: ScenarioStart): ScenarioVersions {
  let start: StateSource = { token: START_TOKEN, scenario: first.scenario, path: first.path, pets: first.pets };
  const kept = new Map<string, StateSource>();
  const sourceFrom = (loaded: LoadedScenario): StateSource => ({ token: loaded.scenario.name, scenario: loaded.scenario, path: loaded.path, pets: loaded.pets });
  const keep = (loaded: LoadedScenario): StateSource => {
    const source = sourceFrom(loaded);
    kept.set(source.token, source);
    return source;
  };
  return {
    start: () => start,
    startName: () => start.scenario?.name,
    nameOf: (token) => (token === START_TOKEN ? start.scenario?.name : token),
    sourceOf(token) {
      if (token === START_TOKEN) return ok(start);
      const known = kept.get(token);
      if (known) return ok(known);
      return library.get(token).then((loaded) => (loaded.ok ? ok(kept.get(token) ?? keep(loaded.value)) : loaded));
    },
    remember: keep,
    replace(loaded) {
      if (start.path === loaded.path) start = { ...sourceFrom(loaded), token: START_TOKEN };
      for (const [name, source] of kept) if (source.path === loaded.path) kept.set(name, sourceFrom(loaded));
    },
    forgetAllBut(token) {
      for (const name of kept.keys()) if (name !== token) kept.delete(name);
    },
    paths() {
      const paths = new Set<string>();
      for (const source of [start, ...kept.values()]) if (source.path) paths.add(source.path);
      return paths;
    },
  };
}
