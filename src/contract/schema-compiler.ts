import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { JsonSchema, OpenApiDocument } from './openapi-types.js';

// ajv-formats is CommonJS: under Node's ESM loader the plugin is the default
// import itself, under bundlers (vitest) it may sit on `.default`.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

const DOCUMENT_ID = 'contract';

export interface SchemaCompiler {
  /** Compiles a schema from the document (it may hold `#/components/...` refs). */
  compile(schema: JsonSchema): ValidateFunction;
}

/**
 * One ajv instance over the document's components, so every validator the
 * mock uses is compiled once, at start-up, from the document itself.
 * `strict: false` because OpenAPI 3.0 schemas carry keywords JSON Schema does
 * not know (`example`, `deprecated`, `x-*`); ajv ignores them.
 */
export function createSchemaCompiler(document: OpenApiDocument): SchemaCompiler {
  // validateSchema off: checking the document's schemas against JSON Schema's
  // meta-schema compiled that meta-schema at every start (about 40 ms, the
  // largest single cost of start-up). The document is linted in CI
  // (`npm run lint:openapi`), and a schema ajv cannot compile still stops
  // start-up, naming the operation.
  const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false, validateSchema: false });
  addFormats(ajv);
  // ajv-formats takes any integer as int64. A JSON number past 2^53 loses
  // digits once parsed by JavaScript, so accepting one would silently store
  // another value than the client sent: such values are refused instead.
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  return {
    compile(schema) {
      // Rebase local refs onto the registered document.
      const rebased = JSON.parse(
        JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`),
      ) as JsonSchema;
      return ajv.compile(rebased);
    },
  };
}

export type { ErrorObject, ValidateFunction };
