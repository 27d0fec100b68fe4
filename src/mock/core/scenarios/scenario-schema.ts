import type { Ajv, Options, ValidateFunction } from 'ajv';
import { plainAjv } from '../../../document/ajv-instances.js';
import { shippedText } from '../../../shared/shipped-file.js';
import { precompiledOrCompiled, validatorKey } from '../../../document/precompiled-validators.js';
import { failed, ok, type Result } from '../result.js';
import { describeSchemaErrors } from './describe-schema-errors.js';
import type { ScenarioFile } from './scenario.js';

/** The JSON Schema of scenario files, shipped in scenarios/ for editors and reviewers alike. */
export const SCENARIO_SCHEMA_FILE = 'scenarios/scenario.schema.json';

let compiled: ValidateFunction | undefined;

/** ajv's options for the scenario schema; `validateSchema` is the caller's. */
export const SCENARIO_AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

/** The scenario schema's key among the build's precompiled validators, from its text as it is now. */
export const scenarioSchemaKey = (schemaText: string): string => validatorKey('scenario-schema', JSON.stringify(SCENARIO_AJV_OPTIONS), schemaText);

/**
 * The scenario schema compiled with `ajv` (the build's, asking for source),
 * or with a run-time ajv. The schema itself is checked against the
 * draft-07 meta-schema by the tests, not at every start.
 */
export function compileScenarioSchema(schemaText: string, ajv?: Ajv): ValidateFunction {
  const options: Options = { ...SCENARIO_AJV_OPTIONS, validateSchema: false, code: { optimize: false } };
  return (ajv ?? plainAjv(options)).compile(JSON.parse(schemaText) as object);
}

/**
 * Checks a parsed scenario file against scenarios/scenario.schema.json
 * (draft-07, strict; strictRequired off, as the `required` of a oneOf
 * branch names properties its parent defines). Its own ajv, not the
 * contract's: this schema describes the mock's files, not the API. The
 * build precompiles it (ajv standalone), which takes its compiling off
 * start-up; a schema edited since the build is compiled here.
 */
export function checkScenarioSchema(data: unknown): Result<ScenarioFile, string[]> {
  if (!compiled) {
    const text = shippedText(SCENARIO_SCHEMA_FILE);
    compiled = precompiledOrCompiled(scenarioSchemaKey(text), () => compileScenarioSchema(text));
  }
  if (compiled(data)) return ok(data as ScenarioFile);
  return failed(describeSchemaErrors(compiled.errors ?? []));
}
