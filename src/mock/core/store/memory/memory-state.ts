import type { CatalogueBudget, CatalogueUse } from '../../catalogue/catalogue-limits.js';
import { createMemoryCatalogue, type MemoryCatalogue } from './memory-catalogue.js';
import type { ScenarioStart, ScenarioState, StateCatalogue } from '../mock-store.js';
import { pickStub } from '../../scenarios/pick-stub.js';
import { createScenarioRuntime, resetScenarioRuntime, type ScenarioRuntime } from '../../scenarios/scenario-runtime.js';

/** One scenario's state in memory: the interface's, plus what the control reaches (the runtime, the catalogue, a reset). */
export interface MemoryState extends ScenarioState {
  /** None: the handlers alone answer. */
  readonly runtime: ScenarioRuntime | undefined;
  /** Animals in its catalogue now. */
  size(): number;
  /** What its catalogue added to the start (a reset frees it): what the session's budget counts. */
  added(): CatalogueUse;
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
export function memoryState(from: ScenarioStart, budget: CatalogueBudget): MemoryState {
  const runtime = from.scenario && createScenarioRuntime(from.scenario);
  // A reset replaces it: the start catalogue is indexed once and shared, so that costs O(1).
  let pets: MemoryCatalogue = createMemoryCatalogue(from.pets);
  const catalogue: StateCatalogue = {
    listJson: (query) => pets.listJson(query),
    getJson: (id) => pets.getJson(id),
    create: (pet, options) => pets.create(pet, budget, options),
    count: () => pets.size,
  };
  return {
    scenario: from.scenario,
    path: from.path,
    runtime,
    size: () => pets.size,
    added: () => pets.added,
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
      pets = createMemoryCatalogue(from.pets);
      if (runtime) resetScenarioRuntime(runtime);
    },
  };
}
