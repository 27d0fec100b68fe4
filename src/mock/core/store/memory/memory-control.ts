import { errorBody } from '../../errors.js';
import { ownCopy } from '../../own-copy.js';
import { type Result } from '../../result.js';
import type { CatalogueBudget } from '../../catalogue/catalogue-limits.js';
import type { ScenarioControl, ScenarioStart, ScenarioState, StateSummary } from '../mock-store.js';
import type { LoadedScenario, ScenarioLibrary } from '../../scenarios/scenario-library.js';
import { memoryState, type MemoryState } from './memory-state.js';

/** The memory store's control: the interface's, plus what hot reload and the session table reach in the process. */
export interface MemoryControl extends ScenarioControl {
  active(): MemoryState;
  /** One budget over every scenario state of the session (see `limits`). */
  readonly budget: CatalogueBudget;
  /** Hot reload: every state of that file starts afresh from the new version. */
  replace(loaded: LoadedScenario): void;
  /** The scenario files this control has state for. */
  paths(): string[];
}

export interface MemoryControlOptions {
  library: ScenarioLibrary;
  start: ScenarioStart;
}

/**
 * The scenarios of one session (or of the shared default) in memory: the
 * active one, and every other one a request used with `Prefer:
 * scenario=NAME`, each with its own state. Activating builds a fresh state
 * and swaps it in at once, only after everything loaded, so a refused
 * scenario leaves the previous one serving.
 *
 * One budget over every state the session has (the active one and those
 * `Prefer: scenario=` started), so using more scenarios does not multiply
 * it. A state rebuilt (reset, activation, reload) starts with nothing
 * added, which frees its share.
 *
 * One closure over the control's private state (the active scenario and
 * the states kept by name): its length is its methods, each of them short.
 */
export function createMemoryControl({ library, start }: MemoryControlOptions): MemoryControl {
  const budget: CatalogueBudget = {
    limits: library.catalogueLimits,
    used() {
      let { pets, bytes } = active.added();
      for (const state of others.values()) {
        const added = state.added();
        pets += added.pets;
        bytes += added.bytes;
      }
      return { pets, bytes };
    },
  };
  let active: MemoryState = memoryState(start, budget);
  // Other scenarios' states, by name, started by `Prefer: scenario=`; the active one is never here.
  const others = new Map<string, MemoryState>();
  const activeName = (): string | undefined => active.scenario?.name;
  const fresh = (loaded: LoadedScenario): MemoryState => memoryState(loaded, budget);

  // Activations can overlap (a catalogue is built asynchronously). Of those
  // that load, the one started last wins: each takes a ticket when it starts,
  // and one that loads after a later-started one was applied is superseded.
  // A later activation that fails cancels nothing.
  let tickets = 0;
  let applied = 0;

  return {
    scenarios: library.source,
    limits: library.catalogueLimits,
    budget,
    active: () => active,
    async activate(name) {
      const mine = ++tickets;
      const loaded = await library.load(name);
      if (!loaded.ok) return loaded;
      if (mine < applied) return { ok: false, error: errorBody('activation_superseded', `scenario ${name} loaded after an activation started later than it, which stays`) };
      applied = mine;
      active = fresh(loaded.value);
      others.delete(name);
      return { ok: true, value: loaded.value.scenario };
    },
    stateOf(name) {
      if (name === activeName()) return { ok: true, value: active };
      const found = others.get(name);
      return found ? { ok: true, value: found } : startState(name);
    },
    reset() {
      active.reset();
      others.clear();
      return summary(active);
    },
    resetScenario(name) {
      const state = name === activeName() ? active : others.get(name);
      if (!state) return undefined;
      state.reset();
      return summary(state);
    },
    replace(loaded) {
      if (active.path === loaded.path) active = fresh(loaded);
      for (const [name, state] of others) if (state.path === loaded.path) others.set(name, fresh(loaded));
    },
    paths() {
      return [active.path, ...[...others.values()].map((state) => state.path)].filter((path): path is string => path !== undefined);
    },
  };

  async function startState(name: string): Promise<Result<ScenarioState>> {
    const loaded = await library.get(name);
    if (!loaded.ok) return loaded;
    if (name === activeName()) return { ok: true, value: active };
    // Another request may have started it while this one waited. A name read from a client's Prefer header: kept as its own copy (see ownCopy). At most one state per scenario file.
    const state = others.get(name) ?? fresh(loaded.value);
    others.set(ownCopy(name), state);
    return { ok: true, value: state };
  }
}

/** A memory state as the admin API shows it. */
export const summary = (state: MemoryState): StateSummary => ({ scenario: state.scenario?.name ?? null, pets: state.size(), state: state.runtime?.state ?? null });
