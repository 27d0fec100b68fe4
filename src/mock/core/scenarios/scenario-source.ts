import { clip } from '../errors.js';
import type { CatalogueSource } from '../fixtures/check-fixture.js';
import type { Result } from '../result.js';

/** The scenario new sessions start in when none is named (`--scenario`, createMock's `scenario`). */
export const DEFAULT_SCENARIO = 'default';

/** One scenario where a source keeps it: a file of a folder, or data handed to the engine. */
export interface ScenarioEntry {
  readonly name: string;
  /** Where it is, as messages show it (`scenarios/flaky.yaml`). */
  readonly shown: string;
  /** The file it is read from, watched for changes; none for data. */
  readonly file?: string | undefined;
  /** Its data (YAML or JSON read), or why it cannot be read. */
  read(): Result<unknown, string>;
  /** Changes when its content may have: a kept reading is used only while this stays the same. */
  stamp(): string;
}

/**
 * Where scenarios come from: a folder (the node server's `--scenarios`,
 * scenario-folder.ts) or data (the engine's, given-scenarios.ts). Names
 * are looked up in the listing, never joined into a path.
 */
export interface ScenarioSource {
  /** What messages call it: `scenarios` (a folder), `the given scenarios`. */
  readonly where: string;
  list(): Result<ReadonlyMap<string, ScenarioEntry>, string>;
  /** The catalogue of a scenario's `catalogue.fixture` (a path as the scenario wrote it). */
  fixture(path: string): CatalogueSource;
}

/** The entry of scenario `name`, or an error naming the ones known. */
export function findScenarioEntry(source: ScenarioSource, name: string): Result<ScenarioEntry, string> {
  const listed = source.list();
  if (!listed.ok) return listed;
  const entry = listed.value.get(name);
  if (entry) return { ok: true, value: entry };
  const known = [...listed.value.keys()];
  return { ok: false, error: `unknown scenario ${JSON.stringify(clip(name))} in ${source.where} (known: ${known.join(', ') || 'none'})` };
}
