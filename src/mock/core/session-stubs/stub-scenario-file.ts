import { dump } from 'js-yaml';
import type { CatalogueSpec, ScenarioFile } from '../scenarios/scenario.js';
import type { SessionStub } from './session-stubs.js';

/** The catalogue of a saved stub when the session serves no scenario (a mock started with --fixtures or --seed). */
const DEFAULT_CATALOGUE: CatalogueSpec = { fixture: 'fixtures/pets.json' };

/**
 * A session stub as a scenario file of its own, `<id>.yaml`, that loads as
 * written (`--scenario <id>` with the file in the scenarios folder): named
 * after the stub, with the catalogue of the scenario the session serves,
 * and the stub exactly as it was added. YAML, as the shipped scenarios
 * are, with the schema line editors read.
 */
export function stubScenarioFile(stub: SessionStub, catalogue: CatalogueSpec | undefined): { name: string; text: string } {
  const file: ScenarioFile = {
    name: stub.id,
    description: `${stub.match.operation === '*' ? 'Every operation' : stub.match.operation} answered by the stub ${stub.id}, saved from a session of the mock.`,
    catalogue: catalogue ?? DEFAULT_CATALOGUE,
    stubs: [stub],
  };
  const text = `# yaml-language-server: $schema=./scenario.schema.json\n${dump(file, { lineWidth: -1, noRefs: true })}`;
  return { name: `${stub.id}.yaml`, text };
}
