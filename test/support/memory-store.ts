import type { Contract } from '../../src/document/contract.js';
import { defaultScenariosDir } from '../../src/mock/core/scenarios/find-scenario.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import { createScenarioLibrary, type ScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import type { MockStore, ScenarioStart } from '../../src/mock/core/store/mock-store.js';
import { openStore } from '../../src/mock/core/store/open-store.js';

/** A memory store starting from `start`, and its scenario library (the project's scenarios/ unless `dir`): what an in-process mock app serves from. */
export async function openMemoryStore(contract: Contract, start: ScenarioStart, dir = defaultScenariosDir()): Promise<{ store: MockStore; library: ScenarioLibrary }> {
  const library = createScenarioLibrary({ contract, source: scenariosInFolder(contract, dir) });
  return { store: await openStore({ library, start }), library };
}

/** How many animals the shared default's active catalogue holds now. */
export async function sharedPets(store: MockStore): Promise<number> {
  return (await store.shared.control.active()).catalogue.count();
}
