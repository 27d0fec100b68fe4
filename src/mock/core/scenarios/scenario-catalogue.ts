import { isAbsolute, join } from 'node:path';
import type { Contract } from '../../../document/load-contract.js';
import { packageRoot } from '../../../shared/package-root.js';
import type { CatalogueSource } from '../fixtures/load-catalogue.js';
import { loadFixture } from '../fixtures/load-fixture.js';
import { failed, ok } from '../result.js';
import type { Scenario } from './load-scenario.js';

/**
 * The animals a scenario starts with: its fixture (a path relative to the
 * project root, or absolute) checked against the document's `Pets` schema,
 * or a catalogue generated with faker. faker is imported only here, and only
 * for a generated catalogue: it is slow and large to load (BENCHMARKS.md).
 */
export async function buildScenarioCatalogue(contract: Contract, scenario: Scenario): Promise<CatalogueSource> {
  const spec = scenario.catalogue;
  if ('fixture' in spec) {
    const file = isAbsolute(spec.fixture) ? spec.fixture : join(packageRoot(), spec.fixture);
    const loaded = loadFixture(contract, file);
    if (!loaded.ok) return failed(`${scenario.file}: $.catalogue.fixture is not a usable catalogue: ${loaded.error}`);
    return ok({ pets: loaded.value, from: file });
  }
  const { count, seed, statusMix } = spec.generate;
  const { generateCatalogue } = await import('../fixtures/generate-catalogue.js');
  const mix = statusMix ? ', status mix ' + Object.entries(statusMix).map(([status, weight]) => `${status} ${weight}`).join(', ') : '';
  return ok({ pets: generateCatalogue(statusMix ? { count, seed, statusMix } : { count, seed }), from: `faker, seed ${seed}${mix}` });
}
