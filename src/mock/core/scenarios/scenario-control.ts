import { errorBody } from '../errors.js';
import { ownCopy } from '../own-copy.js';
import { type Result } from '../result.js';
import { createPetStore, type PetStore } from '../catalogue/pet-store.js';
import type { Pet } from '../catalogue/pet.js';
import type { CatalogueBudget } from '../catalogue/catalogue-limits.js';
import type { Scenario } from './load-scenario.js';
import type { LoadedScenario, ScenarioLibrary } from './scenario-library.js';
import { createScenarioRuntime, resetScenarioRuntime, type ScenarioRuntime } from './scenario-runtime.js';

/** One scenario's live state: its stubs' state and call counts, and its catalogue. */
export interface ScenarioState {
  /** None: the handlers alone answer (a mock started without a scenario). */
  readonly runtime: ScenarioRuntime | undefined;
  /** The scenario file (absolute), what hot reload compares against. */
  readonly path: string | undefined;
  store: PetStore;
  /** The catalogue it started with, for a reset. */
  readonly initialPets: readonly Pet[];
}

/** What a control starts with: a scenario and its catalogue, or a catalogue alone. */
export interface ScenarioStart {
  scenario?: Scenario | undefined;
  path?: string | undefined;
  pets: readonly Pet[];
  /** Serve this store as it is at first (a test's or a faulty server's own); a reset rebuilds from `pets`. */
  store?: PetStore | undefined;
}

/**
 * The scenarios of one session (or of the shared default): the active one,
 * and every other one a request used with `Prefer: scenario=NAME`, each with
 * its own state. Activating builds a fresh state and swaps it in at once,
 * only after everything loaded, so a refused scenario leaves the previous
 * one serving. `store` always reaches the active catalogue.
 */
export interface ScenarioControl {
  readonly dir: string;
  readonly active: ScenarioState;
  readonly runtime: ScenarioRuntime | undefined;
  readonly path: string | undefined;
  readonly store: PetStore;
  /**
   * What the session may add to its catalogues: one budget over every
   * scenario state it has (the active one and those `Prefer: scenario=`
   * started), so using more scenarios does not multiply it. A state
   * rebuilt (reset, activation, reload) starts with nothing added, which
   * frees its share.
   */
  readonly budget: CatalogueBudget;
  /** Loads `name` from its file now, and makes it active with a fresh state. */
  activate(name: string): Promise<Result<Scenario>>;
  /** The state `Prefer: scenario=NAME` answers from: the active one's, or that scenario's own, started on first use. */
  stateOf(name: string): Promise<Result<ScenarioState>>;
  /** Every scenario of the session back to its start; the active one stays active. */
  reset(): void;
  /** One scenario back to its start (catalogue, state, call counts), and its state; undefined: it has no state here yet. */
  resetScenario(name: string): ScenarioState | undefined;
  /** Hot reload: every state of that file starts afresh from the new version. */
  replace(loaded: LoadedScenario): void;
  /** The scenario files this control has state for. *
 * One closure over the control's private state (the active scenario and
 * the states kept by name): its length is its methods, each of them short.
 */
  paths(): string[];
}

export interface ScenarioControlOptions {
  library: ScenarioLibrary;
  start: ScenarioStart;
}

export function createScenarioControl({ library, start }: ScenarioControlOptions): ScenarioControl {
  let active: ScenarioState = {
    runtime: start.scenario && createScenarioRuntime(start.scenario),
    path: start.path,
    store: start.store ?? createPetStore(start.pets),
    initialPets: start.pets,
  };
  // Other scenarios' states, by name, started by `Prefer: scenario=`; the active one is never here.
  const others = new Map<string, ScenarioState>();

  // Handlers hold this store; it forwards to the active catalogue.
  const store: PetStore = {
    list: (query) => active.store.list(query),
    get: (id) => active.store.get(id),
    create: ((pet, budget) => active.store.create(pet, budget)) as PetStore['create'],
    listJson: (query) => active.store.listJson(query),
    getJson: (id) => active.store.getJson(id),
    get size() {
      return active.store.size;
    },
    get added() {
      return active.store.added;
    },
  };
  const budget: CatalogueBudget = {
    limits: library.catalogueLimits,
    used() {
      let { pets, bytes } = active.store.added;
      for (const state of others.values()) {
        pets += state.store.added.pets;
        bytes += state.store.added.bytes;
      }
      return { pets, bytes };
    },
  };
  const activeName = (): string | undefined => active.runtime?.scenario.name;

  // Activations can overlap (a catalogue is built asynchronously). Of those
  // that load, the one started last wins: each takes a ticket when it starts,
  // and one that loads after a later-started one was applied is superseded.
  // A later activation that fails cancels nothing.
  let tickets = 0;
  let applied = 0;

  return {
    dir: library.dir,
    get active() {
      return active;
    },
    get runtime() {
      return active.runtime;
    },
    get path() {
      return active.path;
    },
    store,
    budget,
    async activate(name) {
      const mine = ++tickets;
      const loaded = await library.load(name);
      if (!loaded.ok) return loaded;
      if (mine < applied) return { ok: false, error: errorBody('activation_superseded', `scenario ${name} loaded after an activation started later than it, which stays`) };
      applied = mine;
      active = stateFrom(loaded.value);
      others.delete(name);
      return { ok: true, value: loaded.value.scenario };
    },
    async stateOf(name) {
      if (name === activeName()) return { ok: true, value: active };
      const found = others.get(name);
      if (found) return { ok: true, value: found };
      const loaded = await library.get(name);
      if (!loaded.ok) return loaded;
      // Another request may have started it while this one waited.
      const state = others.get(name) ?? stateFrom(loaded.value);
      // A name read from a client's Prefer header: kept as its own copy (see ownCopy). At most one state per scenario file.
      if (name !== activeName()) others.set(ownCopy(name), state);
      return { ok: true, value: name === activeName() ? active : state };
    },
    reset() {
      resetState(active);
      others.clear();
    },
    resetScenario(name) {
      const state = name === activeName() ? active : others.get(name);
      if (state) resetState(state);
      return state;
    },
    replace(loaded) {
      if (active.path === loaded.path) active = stateFrom(loaded);
      for (const [name, state] of others) if (state.path === loaded.path) others.set(name, stateFrom(loaded));
    },
    paths() {
      return [active.path, ...[...others.values()].map((state) => state.path)].filter((path): path is string => path !== undefined);
    },
  };
}

function stateFrom({ scenario, path, pets }: LoadedScenario): ScenarioState {
  return { runtime: createScenarioRuntime(scenario), path, store: createPetStore(pets), initialPets: pets };
}

function resetState(state: ScenarioState): void {
  state.store = createPetStore(state.initialPets);
  if (state.runtime) resetScenarioRuntime(state.runtime);
}
