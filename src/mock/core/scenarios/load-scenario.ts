import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseYaml } from '../../../shared/parse-yaml.js';
import type { Contract } from '../../../document/load-contract.js';
import { compileStub, type CompiledStub } from './compile-stub.js';
import { displayPath, findScenario } from './find-scenario.js';
import type { Result } from '../result.js';
import { DEFAULT_INITIAL_STATE, type CatalogueSpec, type ScenarioFile } from './scenario.js';
import { checkScenarioSchema } from './scenario-schema.js';
import { validateStubs } from './validate-stubs.js';

/** A scenario that loaded: validated against its schema and the contract document, stubs compiled. */
export interface Scenario {
  name: string;
  description: string;
  /** The file it came from, as messages show it. */
  file: string;
  catalogue: CatalogueSpec;
  initialState: string;
  stubs: CompiledStub[];
}

/** Finds scenario `name` in `dir` and loads it. */
export function loadScenario(contract: Contract, dir: string, name: string): Result<Scenario, string> {
  const found = findScenario(dir, name);
  return found.ok ? loadScenarioFile(contract, found.value) : found;
}

/**
 * Reads a scenario file (YAML, or JSON, which is YAML too) and checks it:
 * first against scenarios/scenario.schema.json, then what the schema cannot
 * say (the name is the file's, stubs keep the contract document…). A file
 * that fails is refused with `<file>: <JSONPath> <reason>`, every problem
 * found joined with `; `.
 */
export function loadScenarioFile(contract: Contract, file: string): Result<Scenario, string> {
  const shown = displayPath(file);
  const refuse = (problems: string[]): Result<Scenario, string> => ({ ok: false, error: `${shown}: ${problems.join('; ')}` });
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    // yaml's messages go on with an excerpt of the file over several lines; the first says where.
    return refuse([`cannot be read as YAML or JSON: ${(error as Error).message.split('\n', 1)[0]}`]);
  }
  const checked = checkScenarioSchema(data);
  if (!checked.ok) return refuse(checked.error);
  const scenario = checked.value;

  const problems: string[] = [];
  const fileName = basename(file, extname(file));
  if (scenario.name !== fileName) problems.push(`$.name must be the file's name, ${fileName} (got ${scenario.name})`);
  const mix = 'generate' in scenario.catalogue ? scenario.catalogue.generate.statusMix : undefined;
  if (mix && !Object.values(mix).some((weight) => weight > 0)) problems.push('$.catalogue.generate.statusMix must give at least one status a weight above 0');
  problems.push(...validateStubs(contract, scenario));
  if (problems.length > 0) return refuse(problems);
  return { ok: true, value: compileScenario(scenario, shown) };
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
