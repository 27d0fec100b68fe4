import type { Contract } from '../../contract/load-contract.js';
import { errorBody, type Result } from '../errors.js';
import type { Pet } from '../store/pet.js';
import { findScenario } from './find-scenario.js';
import { loadScenarioFile, type Scenario } from './load-scenario.js';
import { buildScenarioCatalogue } from './scenario-catalogue.js';

/** A scenario ready to start: checked, its file (absolute), and the catalogue it starts with. */
export interface LoadedScenario {
  scenario: Scenario;
  path: string;
  pets: readonly Pet[];
}

export interface ScenarioLibraryOptions {
  contract: Contract;
  /** The scenarios folder (`--scenarios`). */
  dir: string;
  /** `--fixtures` / `--seed`: this catalogue replaces every scenario's. */
  fixedCatalogue?: readonly Pet[] | undefined;
}

/**
 * The scenario files of one folder, loaded on demand and kept. Sessions and
 * `Prefer: scenario=` start from the kept version, so a new session costs a
 * copy of a catalogue, not a file read, a stub check and (for a generated
 * catalogue) a faker run. Activation and hot reload read the file anew.
 */
export interface ScenarioLibrary {
  readonly dir: string;
  /** Reads, checks and builds `name` from its file now, and keeps the result. */
  load(name: string): Promise<Result<LoadedScenario>>;
  /** The kept version of `name`, loading it the first time. */
  get(name: string): Promise<Result<LoadedScenario>>;
}

export function createScenarioLibrary({ contract, dir, fixedCatalogue }: ScenarioLibraryOptions): ScenarioLibrary {
  const kept = new Map<string, Promise<Result<LoadedScenario>>>();

  async function read(name: string): Promise<Result<LoadedScenario>> {
    const found = findScenario(dir, name);
    if (!found.ok) return { ok: false, error: errorBody('unknown_scenario', found.error) };
    const loaded = loadScenarioFile(contract, found.value);
    if (!loaded.ok) return { ok: false, error: errorBody('invalid_scenario', loaded.error) };
    if (fixedCatalogue) return { ok: true, value: { scenario: loaded.value, path: found.value, pets: fixedCatalogue } };
    const catalogue = await buildScenarioCatalogue(contract, loaded.value);
    if (!catalogue.ok) return { ok: false, error: errorBody('invalid_scenario', catalogue.error) };
    return { ok: true, value: { scenario: loaded.value, path: found.value, pets: catalogue.pets } };
  }

  function load(name: string): Promise<Result<LoadedScenario>> {
    const reading = read(name);
    // A refused file is not kept: the version kept before it (the last good one) stays.
    void reading.then((result) => {
      if (result.ok) kept.set(name, reading);
    });
    return reading;
  }

  return {
    dir,
    load,
    get(name) {
      const found = kept.get(name);
      if (found) return found;
      const reading = read(name);
      kept.set(name, reading);
      // Not kept when refused, so a fixed file is read again next time.
      void reading.then((result) => {
        if (!result.ok && kept.get(name) === reading) kept.delete(name);
      });
      return reading;
    },
  };
}
