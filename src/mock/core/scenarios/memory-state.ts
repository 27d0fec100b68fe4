import type { CatalogueBudget } from '../catalogue/catalogue-limits.js';
import { createPetStore, type PetStore } from '../catalogue/pet-store.js';
import type { Pet } from '../catalogue/pet.js';
import type { ScenarioState, StateCatalogue } from '../store/mock-store.js';
import type { Scenario } from './load-scenario.js';
import { pickStub } from './pick-stub.js';
import { createScenarioRuntime, resetScenarioRuntime, type ScenarioRuntime } from './scenario-runtime.js';

/** One scenario's state in memory: the interface's, plus the runtime and store tests and the control reach. */
export interface MemoryState extends ScenarioState {
  /** None: the handlers alone answer. */
  readonly runtime: ScenarioRuntime | undefined;
  /** Its catalogue now (a reset replaces it). */
  readonly store: PetStore;
  /** Back to the start: the start catalogue, the initial state, every call count 0. */
  reset(): void;
}

const NO_STUBS = Object.freeze([]);

/**
 * A state started from a scenario (or none) and its catalogue, adding
 * within `budget`. Every method answers at once: Node runs each to
 * completion, so a pick's count and its newState, or a create's id, can
 * never interleave with another request's.
 */
export function memoryState(
  from: { scenario?: Scenario | undefined; path?: string | undefined; pets: readonly Pet[]; store?: PetStore | undefined },
  budget: CatalogueBudget,
): MemoryState {
  const runtime = from.scenario && createScenarioRuntime(from.scenario);
  let store = from.store ?? createPetStore(from.pets);
  const catalogue: StateCatalogue = {
    listJson: (query) => store.listJson(query),
    getJson: (id) => store.getJson(id),
    create: (pet) => store.create(pet, budget),
    count: () => store.size,
  };
  return {
    scenario: from.scenario,
    path: from.path,
    runtime,
    get store() {
      return store;
    },
    catalogue,
    stubsFor: (operationId) => runtime?.stubsFor(operationId) ?? NO_STUBS,
    pick(stubs, request) {
      if (!runtime) return { stub: undefined, why: 'no active scenario' };
      const picked = pickStub(runtime, stubs, request);
      if (picked.stub?.newState !== undefined) runtime.state = picked.stub.newState;
      return picked;
    },
    state: () => runtime?.state ?? null,
    calls: () => runtime?.calls ?? [],
    reset() {
      store = createPetStore(from.pets);
      if (runtime) resetScenarioRuntime(runtime);
    },
  };
}
