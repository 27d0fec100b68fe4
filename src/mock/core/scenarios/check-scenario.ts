import type { Contract } from '../../../document/contract.js';
import { compileStub, type CompiledStub } from './compile-stub.js';
import type { Result } from '../result.js';
import { DEFAULT_INITIAL_STATE, type CatalogueSpec, type ScenarioFile } from './scenario.js';
import { checkScenarioSchema } from './scenario-schema.js';
import { validateStubs } from './validate-stubs.js';

/** A scenario that loaded: validated against its schema and the contract document, stubs compiled. */
export interface Scenario {
  name: string;
  description: string;
  /** Where it came from, as messages show it. */
  file: string;
  catalogue: CatalogueSpec;
  initialState: string;
  stubs: CompiledStub[];
}

/**
 * Checks a scenario's data (its file read as YAML or JSON, or an object
 * handed to the engine) named `name` where it is kept: first against
 * scenarios/scenario.schema.json, then what the schema cannot say (the name
 * is the file's, stubs keep the contract document…). One that fails is
 * refused with `<shown>: <JSONPath> <reason>`, every problem found joined
 * with `; `.
 */
export function checkScenario(contract: Contract, data: unknown, where: { name: string; shown: string }): Result<Scenario, string> {
  const refuse = (problems: string[]): Result<Scenario, string> => ({ ok: false, error: `${where.shown}: ${problems.join('; ')}` });
  const checked = checkScenarioSchema(data);
  if (!checked.ok) return refuse(checked.error);
  const scenario = checked.value;

  const problems: string[] = [];
  if (scenario.name !== where.name) problems.push(`$.name must be the file's name, ${where.name} (got ${scenario.name})`);
  const mix = 'generate' in scenario.catalogue ? scenario.catalogue.generate.statusMix : undefined;
  if (mix && !Object.values(mix).some((weight) => weight > 0)) problems.push('$.catalogue.generate.statusMix must give at least one status a weight above 0');
  problems.push(...validateStubs(contract, scenario));
  if (problems.length > 0) return refuse(problems);
  return { ok: true, value: compileScenario(scenario, where.shown) };
}

function compileScenario(scenario: ScenarioFile, file: string): Scenario {
  return {
    name: scenario.name,
    description: scenario.description,
    file,
    catalogue: scenario.catalogue,
    initialState: scenario.initialState ?? DEFAULT_INITIAL_STATE,
    stubs: scenario.stubs.map(compileStub),
  };
}
