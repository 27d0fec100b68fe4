import type { Contract } from '../../../document/contract.js';
import { errorBody } from '../errors.js';
import { ownCopy } from '../own-copy.js';
import { type Result } from '../result.js';
import type { Pet } from '../catalogue/pet.js';
import { DEFAULT_CATALOGUE_LIMITS, type CatalogueLimits } from '../catalogue/catalogue-limits.js';
import { checkScenario, type Scenario } from './check-scenario.js';
import { buildScenarioCatalogue } from './scenario-catalogue.js';
import { findScenarioEntry, type ScenarioEntry, type ScenarioSource } from './scenario-source.js';

/** A scenario ready to start: checked, its file (absolute; for data, where it came from), and the catalogue it starts with. */
export interface LoadedScenario {
  scenario: Scenario;
  path: string;
  pets: readonly Pet[];
}

export interface ScenarioLibraryOptions {
  contract: Contract;
  /** Where the scenarios come from: a folder (`--scenarios`, scenario-folder.ts) or data (given-scenarios.ts). */
  source: ScenarioSource;
  /** `--fixtures` / `--seed`: this catalogue replaces every scenario's. */
  fixedCatalogue?: readonly Pet[] | undefined;
  /** How much each session may add to its catalogue (`--max-pets`, `--max-catalogue-bytes`); default 10,000 animals, 1 MiB. */
  catalogueLimits?: CatalogueLimits | undefined;
}

/**
 * The scenario files of one folder, loaded on demand and kept. `Prefer:
 * scenario=` starts from the kept version, so starting one costs a copy of
 * a catalogue, not a stub check and (for a generated catalogue) a faker
 * run; a kept version is used only while its file is unchanged (same
 * modification time and size), so an edit applies even to a file no one
 * used when it changed, and with `--no-watch`. Activation and hot reload
 * read the file anew.
 */
export interface ScenarioLibrary {
  readonly source: ScenarioSource;
  /** How much each session may add to its catalogue, over all the scenarios it uses: every session's control starts from this library. */
  readonly catalogueLimits: CatalogueLimits;
  /** Reads, checks and builds `name` from its file now, and keeps the result. */
  load(name: string): Promise<Result<LoadedScenario>>;
  /** The kept version of `name` while its file is unchanged; else read now. */
  get(name: string): Promise<Result<LoadedScenario>>;
}

interface Kept {
  reading: Promise<Result<LoadedScenario>>;
  /** Its entry's stamp when read (a file's modification time and size). */
  stamp: string;
}

export function createScenarioLibrary({ contract, source, fixedCatalogue, catalogueLimits = DEFAULT_CATALOGUE_LIMITS }: ScenarioLibraryOptions): ScenarioLibrary {
  const kept = new Map<string, Kept>();

  async function read(found: Result<ScenarioEntry>): Promise<Result<LoadedScenario>> {
    if (!found.ok) return found;
    const entry = found.value;
    const data = entry.read();
    const loaded = data.ok ? checkScenario(contract, data.value, entry) : { ok: false as const, error: `${entry.shown}: ${data.error}` };
    if (!loaded.ok) return { ok: false, error: errorBody('invalid_scenario', loaded.error) };
    const path = entry.file ?? entry.shown;
    if (fixedCatalogue) return { ok: true, value: { scenario: loaded.value, path, pets: fixedCatalogue } };
    const catalogue = await buildScenarioCatalogue(source, loaded.value);
    if (!catalogue.ok) return { ok: false, error: errorBody('invalid_scenario', catalogue.error) };
    return { ok: true, value: { scenario: loaded.value, path, pets: catalogue.value.pets } };
  }

  function locate(name: string): Result<ScenarioEntry> {
    const found = findScenarioEntry(source, name);
    return found.ok ? found : { ok: false, error: errorBody('unknown_scenario', found.error) };
  }

  /**
   * Reads `name` and keeps the reading at once, so requests that ask while
   * it loads share it; a refused file is not kept, and the version kept
   * before it (the last good one) comes back.
   */
  function readAndKeep(name: string, found: Result<ScenarioEntry>): Promise<Result<LoadedScenario>> {
    const previous = kept.get(name);
    const entry = { reading: read(found), stamp: found.ok ? found.value.stamp() : '' };
    // The name may come from a client's Prefer header: its own copy (see ownCopy); a name that is no file is dropped below.
    kept.set(ownCopy(name), entry);
    void entry.reading.then((result) => {
      if (result.ok || kept.get(name) !== entry) return;
      if (previous) kept.set(name, previous);
      else kept.delete(name);
    });
    return entry.reading;
  }

  return {
    source,
    catalogueLimits,
    load: (name) => readAndKeep(name, locate(name)),
    get(name) {
      const found = locate(name);
      const known = kept.get(name);
      if (found.ok && known && known.stamp === found.value.stamp()) return known.reading;
      return readAndKeep(name, found);
    },
  };
}
