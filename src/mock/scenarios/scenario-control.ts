import type { Logger } from 'pino';
import type { Contract } from '../../contract/load-contract.js';
import { errorBody, type Result } from '../errors.js';
import { createPetStore, type PetStore } from '../store/pet-store.js';
import type { Pet } from '../store/pet.js';
import { findScenario } from './find-scenario.js';
import { loadScenarioFile, type Scenario } from './load-scenario.js';
import { buildScenarioCatalogue } from './scenario-catalogue.js';
import { createScenarioRuntime, resetScenarioRuntime, type ScenarioRuntime } from './scenario-engine.js';

/** What is served now: the active scenario (if any), its state, its catalogue. */
interface Active {
  runtime: ScenarioRuntime | undefined;
  /** The scenario file, absolute (what the watcher compares against). */
  path: string | undefined;
  store: PetStore;
  /** The catalogue it started with, for a reset. */
  initialPets: readonly Pet[];
}

export interface ScenarioControlOptions {
  contract: Contract;
  /** The scenarios folder (`--scenarios`). */
  dir: string;
  logger: Logger;
  /** The catalogue served at start. */
  store: PetStore;
  /** The scenario active at start, and its file (absolute); none: the handlers alone. */
  scenario?: ScenarioRuntime | undefined;
  scenarioPath?: string | undefined;
  /** `--fixtures` / `--seed`: this catalogue replaces every scenario's. */
  fixedCatalogue?: readonly Pet[] | undefined;
}

/**
 * The active scenario, switchable at run time (admin API, hot reload). Every
 * switch builds a fresh catalogue and stub state and swaps them in at once,
 * only after everything loaded, so a refused scenario leaves the previous one
 * serving. `store` always reaches the active catalogue.
 */
export interface ScenarioControl {
  readonly dir: string;
  readonly runtime: ScenarioRuntime | undefined;
  readonly path: string | undefined;
  readonly store: PetStore;
  /** Loads, checks and activates scenario `name`. */
  activate(name: string): Promise<Result<Scenario>>;
  /** Loads the active scenario's file again; refused: the last good version stays. */
  reload(): Promise<Result<Scenario>>;
  /** The active scenario back to its start: catalogue, state, call counts. */
  reset(): void;
}

export function createScenarioControl(options: ScenarioControlOptions): ScenarioControl {
  const { contract, dir } = options;
  const snapshot = (store: PetStore): Pet[] => {
    try {
      return [...store.list({ limit: Number.POSITIVE_INFINITY })];
    } catch {
      // A store that cannot list (a test's deliberately broken one) resets to empty.
      return [];
    }
  };
  let active: Active = {
    runtime: options.scenario,
    path: options.scenarioPath,
    store: options.store,
    initialPets: options.fixedCatalogue ?? snapshot(options.store),
  };

  // Handlers hold this store; it forwards to the active catalogue.
  const store: PetStore = {
    list: (query) => active.store.list(query),
    get: (id) => active.store.get(id),
    create: (pet) => active.store.create(pet),
    get size() {
      return active.store.size;
    },
  };

  // Loads can overlap (a catalogue is built asynchronously): the one started last wins.
  let generation = 0;
  async function load(name: string, path: string): Promise<Result<Scenario>> {
    const mine = ++generation;
    const loaded = loadScenarioFile(contract, path);
    if (!loaded.ok) return { ok: false, error: errorBody('invalid_scenario', loaded.error) };
    const scenario = loaded.value;
    let pets = options.fixedCatalogue;
    if (!pets) {
      const catalogue = await buildScenarioCatalogue(contract, scenario);
      if (!catalogue.ok) return { ok: false, error: errorBody('invalid_scenario', catalogue.error) };
      pets = catalogue.pets;
    }
    if (mine !== generation) return { ok: false, error: errorBody('invalid_scenario', `scenario ${name} was replaced by a later activation while it loaded`) };
    active = { runtime: createScenarioRuntime(scenario), path, store: createPetStore(pets), initialPets: pets };
    options.logger.info({ scenario: name, file: scenario.file }, `scenario ${name} active (${scenario.file})`);
    return { ok: true, value: scenario };
  }

  return {
    dir,
    get runtime() {
      return active.runtime;
    },
    get path() {
      return active.path;
    },
    store,
    activate(name) {
      const found = findScenario(dir, name);
      if (!found.ok) return Promise.resolve({ ok: false, error: errorBody('unknown_scenario', found.error) });
      return load(name, found.value);
    },
    async reload() {
      const { runtime, path } = active;
      if (!runtime || !path) return { ok: false, error: errorBody('unknown_scenario', 'no scenario is active') };
      return load(runtime.scenario.name, path);
    },
    reset() {
      active.store = createPetStore(active.initialPets);
      if (active.runtime) resetScenarioRuntime(active.runtime);
    },
  };
}
