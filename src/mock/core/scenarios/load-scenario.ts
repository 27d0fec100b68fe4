import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Contract } from '../../../document/contract.js';
import { readYaml } from '../../../shared/parse-yaml.js';
import { displayPath } from '../files/display-path.js';
import type { Result } from '../result.js';
import { checkScenario, type Scenario } from './check-scenario.js';
import { findScenario } from './find-scenario.js';

/** Finds scenario `name` in `dir` and loads it. */
export function loadScenario(contract: Contract, dir: string, name: string): Result<Scenario, string> {
  const found = findScenario(dir, name);
  return found.ok ? loadScenarioFile(contract, found.value) : found;
}

/** Reads a scenario file (YAML, or JSON, which is YAML too) and checks it (check-scenario.ts); its name is the file's. */
export function loadScenarioFile(contract: Contract, file: string): Result<Scenario, string> {
  const shown = displayPath(file);
  const data = readScenarioFile(file);
  if (!data.ok) return { ok: false, error: `${shown}: ${data.error}` };
  return checkScenario(contract, data.value, { name: basename(file, extname(file)), shown });
}

/** A scenario file's data, or why it cannot be read. */
export function readScenarioFile(file: string): Result<unknown, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, error: `cannot be read as YAML or JSON: ${(error as Error).message}` };
  }
  return readYaml(text);
}
