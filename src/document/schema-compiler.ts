import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { CONTRACT_AJV_OPTIONS, contractAjv } from './ajv-instances.js';
import type { JsonSchema, OpenApiDocument } from './openapi-types.js';
import { precompiledOrCompiled, validatorKey } from './precompiled-validators.js';

const DOCUMENT_ID = 'contract';

export interface SchemaCompiler {
  /** Compiles a schema from the document (it may hold `#/components/...` refs). */
  compile(schema: JsonSchema): ValidateFunction;
  /** How many validators came precompiled from the build, and how many were compiled here. */
  stats(): { precompiled: number; compiled: number };
}

export interface SchemaCompilerOptions {
  /**
   * The build's ajv (asked for the validators' source): every schema is
   * compiled with it, none taken precompiled, and each is handed to
   * `record` with its key.
   */
  build?: { ajv: Ajv; record: (key: string, validate: ValidateFunction) => void };
}

/**
 * One compiler over the document's components, so every validator the mock
 * uses comes from the document itself, compiled once. The validators of
 * the shipped document's start-up are compiled by the build (ajv
 * standalone, see scripts/build-validators.ts) and found here by a key that hashes
 * the ajv options, the document's components and the schema; anything else
 * (an edited document, `--contract`, a scenario's stubs) is compiled at run
 * time by an ajv loaded then.
 */
export function createSchemaCompiler(document: OpenApiDocument, options: SchemaCompilerOptions = {}): SchemaCompiler {
  const components = JSON.stringify(document.components ?? {});
  const optionsTag = JSON.stringify(CONTRACT_AJV_OPTIONS);
  const counts = { precompiled: 0, compiled: 0 };
  let ajv: Ajv | undefined;
  const ajvForDocument = (): Ajv => {
    if (!ajv) {
      ajv = options.build?.ajv ?? contractAjv();
      ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
    }
    return ajv;
  };

  return {
    compile(schema) {
      // Local refs are rebased onto the registered document.
      const rebased = JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`);
      const key = validatorKey(optionsTag, components, rebased);
      const compileHere = (): ValidateFunction => {
        const validate = ajvForDocument().compile(JSON.parse(rebased) as JsonSchema);
        counts.compiled += 1;
        options.build?.record(key, validate);
        return validate;
      };
      // The build compiles every schema, and its compiles are no start-up's: they stay out of the process's tally.
      if (options.build) return compileHere();
      const compiledBefore = counts.compiled;
      const validate = precompiledOrCompiled(key, compileHere);
      if (counts.compiled === compiledBefore) counts.precompiled += 1;
      return validate;
    },
    stats: () => ({ ...counts }),
  };
}

export type { ErrorObject, ValidateFunction };
