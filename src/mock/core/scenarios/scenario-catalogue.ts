import type { CatalogueSource } from '../fixtures/check-fixture.js';
import { failed, ok } from '../result.js';
import type { Scenario } from './check-scenario.js';
import type { ScenarioSource } from './scenario-source.js';

/**
 * The animals a scenario starts with: its fixture (as its source finds it,
 * scenario-source.ts) checked against the document's `Pets` schema,
 * or a catalogue generated with faker. faker is imported only here, and only
 * for a generated catalogue: it is slow and large to load (BENCHMARKS.md).
 */
export async function buildScenarioCatalogue(source: ScenarioSource, scenario: Scenario): Promise<CatalogueSource> {
  const spec = scenario.catalogue;
  if ('fixture' in spec) {
    const loaded = source.fixture(spec.fixture);
    return loaded.ok ? loaded : failed(`${scenario.file}: $.catalogue.fixture is not a usable catalogue: ${loaded.error}`);
  }
  const { count, seed, statusMix } = spec.generate;
  const { generateCatalogue } = await import('../fixtures/generate-catalogue.js');
  const mix = statusMix ? ', status mix ' + Object.entries(statusMix).map(([status, weight]) => `${status} ${weight}`).join(', ') : '';
  return ok({ pets: generateCatalogue(statusMix ? { count, seed, statusMix } : { count, seed }), from: `faker, seed ${seed}${mix}` });
}
