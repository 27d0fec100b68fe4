import { Ajv, type Options } from 'ajv';
import * as formatsModule from 'ajv-formats';

/**
 * ajv, for a schema compiled at run time (one the build did not
 * precompile: an edited document, `--contract`, a scenario's stub bodies,
 * any schema in a runtime without the build's validators). Imported
 * statically, as every runtime can: it costs the node server about 30 ms
 * of start-up, which a `require` on demand saved, but a browser has none.
 * ajv-formats is CommonJS: its plugin is the default export, or the module.
 */
type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

/** ajv's options for the contract's schemas. `strict: false`: OpenAPI 3.0 schemas carry keywords JSON Schema does not know (`example`, `deprecated`, `x-*`). */
export const CONTRACT_AJV_OPTIONS = { strict: false, allErrors: true, discriminator: false, validateSchema: false } as const;

/**
 * An ajv for the contract's schemas, with ajv-formats. `code` is for the
 * build, which asks for the validators' source (ajv standalone).
 * validateSchema off: checking the document's schemas against JSON Schema's
 * meta-schema compiled that meta-schema at every start (about 30 ms). The
 * document is linted in CI (`npm run lint:openapi`), and a schema ajv cannot
 * compile still stops start-up.
 */
export function contractAjv(code?: Options['code']): Ajv {
  const ajv = new Ajv({ ...CONTRACT_AJV_OPTIONS, ...(code && { code }) });
  addFormats(ajv);
  // ajv-formats takes any integer as int64. Integers past 2^53 are read
  // exactly (shared/exact-json/) and shown to validators as stand-ins: a
  // safe integer for one within int64, a number past 2^53 for one outside
  // it. So, on such a view, "within int64" is exactly "a safe integer".
  ajv.addFormat('int64', INT64_FORMAT);
  return ajv;
}

export const INT64_FORMAT = { type: 'number', validate: (value: number) => Number.isSafeInteger(value) } as const;

/** A plain ajv with these options (the scenario schema's), loaded on demand as above. */
export function plainAjv(options: Options): Ajv {
  return new Ajv(options);
}
