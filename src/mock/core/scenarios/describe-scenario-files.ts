import { readFileSync } from 'node:fs';
import { parseYaml } from '../../../shared/parse-yaml.js';
import type { Contract } from '../../../document/load-contract.js';
import { displayPath, listScenarios } from './find-scenario.js';
import { loadScenarioFile } from './load-scenario.js';
import type { Result } from '../result.js';

/** A scenario file as `GET /__mock/scenarios` shows it. */
export interface ScenarioListing {
  name: string;
  /** Its description; null when the file cannot say (unreadable, or no string there). */
  description: string | null;
  file: string;
  valid: boolean;
  /** Why it is refused, each as `<file>: <JSONPath> <reason>`; only for an invalid file. */
  errors?: string[];
  active: boolean;
}

/** Every scenario file in `dir`, each loaded and checked as an activation would. */
export function describeScenarioFiles(contract: Contract, dir: string, activeName: string | undefined): Result<ScenarioListing[], string> {
  const listed = listScenarios(dir);
  if (!listed.ok) return listed;
  return {
    ok: true,
    value: [...listed.value].map(([name, path]) => {
      const file = displayPath(path);
      const loaded = loadScenarioFile(contract, path);
      const active = name === activeName;
      if (loaded.ok) return { name, description: loaded.value.description, file, valid: true, active };
      // The loader joins its problems with `; ` after `<file>: `.
      const errors = loaded.error.slice(file.length + 2).split('; ').map((problem) => `${file}: ${problem}`);
      return { name, description: rawDescription(path), file, valid: false, errors, active };
    }),
  };
}

function rawDescription(path: string): string | null {
  try {
    const data = parseYaml(readFileSync(path, 'utf8')) as { description?: unknown } | null;
    return typeof data?.description === 'string' ? data.description : null;
  } catch {
    return null;
  }
}
