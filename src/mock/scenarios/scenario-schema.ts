import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { packageRoot } from '../../contract/package-root.js';
import { describeSchemaErrors } from './describe-schema-errors.js';
import type { ScenarioFile } from './scenario.js';

/** The JSON Schema of scenario files, shipped in scenarios/ for editors and reviewers alike. */
export const scenarioSchemaPath = (): string => join(packageRoot(), 'scenarios', 'scenario.schema.json');

let compiled: ValidateFunction | undefined;

/** ajv's options for the scenario schema; `validateSchema` is the caller's. */
export const SCENARIO_AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

/**
 * Checks a parsed scenario file against scenarios/scenario.schema.json,
 * compiled once with ajv (draft-07, strict; strictRequired off, as the
 * `required` of a oneOf branch names properties its parent defines). Its
 * own ajv, not the contract's: this schema describes the mock's files, not
 * the API. The schema itself is checked against the draft-07 meta-schema by
 * the tests, not at every start: that, and ajv's code optimizer, doubled
 * the 25 ms this compile adds to start-up.
 */
export function checkScenarioSchema(data: unknown): { ok: true; value: ScenarioFile } | { ok: false; errors: string[] } {
  compiled ??= new Ajv({ ...SCENARIO_AJV_OPTIONS, validateSchema: false, code: { optimize: false } }).compile(
    JSON.parse(readFileSync(scenarioSchemaPath(), 'utf8')) as object,
  );
  if (compiled(data)) return { ok: true, value: data as ScenarioFile };
  return { ok: false, errors: describeSchemaErrors(compiled.errors ?? []) };
}
