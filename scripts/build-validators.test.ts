import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../src/shared/parse-yaml.js';
import { contractAjv } from '../src/document/ajv-instances.js';
import { loadContract } from '../src/document/load-contract.js';
import { loadDocument } from '../src/document/load-document.js';
import { createSchemaCompiler } from '../src/document/schema-compiler.js';
import { compileOperations } from '../src/document/operations.js';
import { precompiledValidators, validatorTally } from '../src/document/precompiled-validators.js';
import { compileScenarioSchema, scenarioSchemaKey } from '../src/mock/core/scenarios/scenario-schema.js';
import { scenarioSchemaPath } from '../src/mock/core/scenarios/scenario-schema-path.js';
import { defaultScenariosDir, listScenarios } from '../src/mock/core/scenarios/find-scenario.js';

/**
 * The validators `npm run build` precompiles (ajv standalone) must be the
 * ones run-time compiling gives: same verdicts, same errors. npm test
 * builds first, so dist/generated/validators.cjs is there.
 */
const runtimeCompiler = () => {
  const document = loadDocument();
  // The build's path compiles every schema; a plain ajv here, so all are compiled now, none taken precompiled.
  const schemas = createSchemaCompiler(document, { build: { ajv: contractAjv(), record: () => undefined } });
  return { schemas, operations: compileOperations(document, schemas) };
};

describe('precompiled validators', () => {
  it('serve the shipped document with no compile at start-up', () => {
    const before = validatorTally();
    const contract = loadContract();
    expect(precompiledValidators().size).toBeGreaterThanOrEqual(6);
    expect(contract.schemas.stats()).toEqual({ precompiled: 4, compiled: 0 });
    contract.schemas.compile({ $ref: '#/components/schemas/Pets' });
    expect(contract.schemas.stats()).toEqual({ precompiled: 5, compiled: 0 });
    // The process's tally, which the mock's start-up line reports, counts the same.
    expect(validatorTally()).toEqual({ precompiled: before.precompiled + 5, compiled: before.compiled });
  });

  it('are not used for a schema the build did not see: it is compiled at run time', () => {
    const contract = loadContract();
    const before = validatorTally();
    const validate = contract.schemas.compile({ type: 'integer', minimum: 3 });
    expect(contract.schemas.stats().compiled).toBe(1);
    expect(validatorTally()).toEqual({ precompiled: before.precompiled, compiled: before.compiled + 1 });
    expect([validate(2), validate(3)]).toEqual([false, true]);
  });

  it('give the same verdicts and errors as run-time compiled ones', () => {
    const built = loadContract();
    const runtime = runtimeCompiler();
    const limit = (operations: typeof built.operations) => operations.get('listPets')!.query.find((p) => p.name === 'limit')!.validate;
    const status = (operations: typeof built.operations) => operations.get('listPets')!.query.find((p) => p.name === 'status')!.validate;
    const petId = (operations: typeof built.operations) => operations.get('getPet')!.pathParams.find((p) => p.name === 'petId')!.validate;
    const body = (operations: typeof built.operations) => operations.get('createPet')!.body!.validate;
    const cases: Array<[string, (operations: typeof built.operations) => (value: unknown) => boolean, unknown[]]> = [
      ['limit', limit, [1, 20, 100, 0, 101, -1, 1.5, 'abc', null, 2 ** 53 + 1]],
      ['status', status, ['available', 'pending', 'sold', 'Sold', '', 3, null]],
      ['petId', petId, [1, 0, -1, 1.5, 2 ** 53 - 1, 2 ** 53 + 1, 'abc']],
      ['createPet body', body, [
        { name: 'Rex', categoryId: 1 }, { name: 'Rex', categoryId: 1, status: 'sold' }, { name: '', categoryId: 1 }, { name: 'Rex' },
        { name: 3, categoryId: 'x' }, { name: 'Rex', categoryId: 2 ** 53 + 1 }, { name: 'Rex', categoryId: 1, status: 'lost' }, [], null, 'text',
      ]],
    ];
    for (const [what, pick, values] of cases) {
      const precompiled = pick(built.operations) as ((value: unknown) => boolean) & { errors?: unknown };
      const compiled = pick(runtime.operations) as ((value: unknown) => boolean) & { errors?: unknown };
      expect(precompiled, `${what}: the built one is not the run-time one`).not.toBe(compiled);
      for (const value of values) {
        expect([what, value, precompiled(value), precompiled.errors ?? null]).toEqual([what, value, compiled(value), compiled.errors ?? null]);
      }
    }
    expect(built.schemas.stats().compiled).toBe(0);
    expect(runtime.schemas.stats().precompiled).toBe(0);
  });

  it('include the scenario schema, with the same verdicts and errors on every shipped scenario and broken ones', () => {
    const text = readFileSync(scenarioSchemaPath(), 'utf8');
    const precompiled = precompiledValidators().get(scenarioSchemaKey(text));
    expect(precompiled).toBeDefined();
    const compiled = compileScenarioSchema(text);
    const listed = listScenarios(defaultScenariosDir());
    if (!listed.ok) throw new Error(listed.error);
    const files = [...listed.value.values()].map((path) => parseYaml(readFileSync(path, 'utf8')));
    const broken = [{}, { name: 'x' }, { name: 'Bad Name', description: 1, catalogue: {}, stubs: [{ match: {} }] }, { ...(files[0] as object), extra: true }];
    for (const data of [...files, ...broken]) {
      expect([precompiled!(data), precompiled!.errors ?? null]).toEqual([compiled(data), compiled.errors ?? null]);
    }
  });
});
