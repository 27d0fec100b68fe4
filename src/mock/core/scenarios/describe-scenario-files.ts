import type { Contract } from '../../../document/contract.js';
import type { Result } from '../result.js';
import { checkScenario } from './check-scenario.js';
import type { ScenarioEntry, ScenarioSource } from './scenario-source.js';

/** A scenario as `GET /__mock/scenarios` shows it. */
export interface ScenarioListing {
  name: string;
  /** Its description; null when its data cannot say (unreadable, or no string there). */
  description: string | null;
  file: string;
  valid: boolean;
  /** Why it is refused, each as `<file>: <JSONPath> <reason>`; only for an invalid one. */
  errors?: string[];
  active: boolean;
}

/** Every scenario of `source`, each read and checked as an activation would. */
export function describeScenarioFiles(contract: Contract, source: ScenarioSource, activeName: string | undefined): Result<ScenarioListing[], string> {
  const listed = source.list();
  if (!listed.ok) return listed;
  return { ok: true, value: [...listed.value].map(([name, entry]) => describe(contract, entry, name === activeName)) };
}

function describe(contract: Contract, entry: ScenarioEntry, active: boolean): ScenarioListing {
  const { name, shown: file } = entry;
  const data = entry.read();
  const loaded = data.ok ? checkScenario(contract, data.value, entry) : { ok: false as const, error: `${file}: ${data.error}` };
  if (loaded.ok) return { name, description: loaded.value.description, file, valid: true, active };
  // The check joins its problems with `; ` after `<file>: `.
  const errors = loaded.error.slice(file.length + 2).split('; ').map((problem) => `${file}: ${problem}`);
  return { name, description: data.ok ? rawDescription(data.value) : null, file, valid: false, errors, active };
}

function rawDescription(data: unknown): string | null {
  const description = typeof data === 'object' && data !== null ? (data as { description?: unknown }).description : undefined;
  return typeof description === 'string' ? description : null;
}
