import type { Contract } from '../../document/contract.js';
import { readYaml } from '../../shared/parse-yaml.js';
import { shippedPaths, shippedText } from '../../shared/shipped-file.js';
import { fixtureFromText } from '../core/fixtures/check-fixture.js';
import { failed, ok } from '../core/result.js';
import type { ScenarioEntry, ScenarioSource } from '../core/scenarios/scenario-source.js';
import type { EngineCaller } from './engine-caller.js';

const SCENARIO_FILE = /^scenarios\/(.+)\.(ya?ml|json)$/;

/**
 * The engine's scenarios: the shipped ones (scenarios/*.yaml, as the build
 * copied them) and the ones handed to `createMock` (or `createHandlers`, the caller), by name; a given one
 * takes the place of a shipped one of its name. A scenario's fixture must
 * be one the package ships (`fixtures/pets.json`): the engine reads no
 * file system.
 */
export function givenScenarios(contract: Contract, given: ReadonlyMap<string, unknown>, caller: EngineCaller): ScenarioSource {
  const entries = new Map<string, ScenarioEntry>();
  for (const path of shippedPaths('scenarios')) {
    const name = SCENARIO_FILE.exec(path)?.[1];
    if (name === undefined || path.endsWith('.schema.json')) continue;
    entries.set(name, { name, shown: path, read: () => readYaml(shippedText(path)), stamp: () => '' });
  }
  for (const [name, data] of given) entries.set(name, { name, shown: `${JSON.stringify(name)} (given to ${caller})`, read: () => ok(data), stamp: () => '' });
  return {
    where: `the scenarios given to ${caller} and the shipped ones`,
    list: () => ok(entries),
    fixture(path) {
      const file = path.replace(/^\.\//, '');
      let text: string;
      try {
        text = shippedText(file);
      } catch {
        return failed(`${path} is not a fixture the package ships; give the animals as ${caller}'s fixtures instead`);
      }
      const loaded = fixtureFromText(contract, file, text);
      return loaded.ok ? ok({ pets: loaded.value, from: file }) : loaded;
    },
  };
}
