import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, Options } from 'ajv';

/**
 * ajv, loaded when a schema has to be compiled at run time (one the build
 * did not precompile: an edited document, `--contract`, a scenario's stub
 * bodies), not at every start: importing it costs about 50 ms. ajv and
 * ajv-formats are CommonJS, so `require` loads them synchronously.
 */
const require = createRequire(import.meta.url);

type AjvClass = new (options: Options) => AjvInstance;
type FormatsPlugin = (ajv: AjvInstance) => AjvInstance;

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
export function contractAjv(code?: Options['code']): AjvInstance {
  const { Ajv } = require('ajv') as { Ajv: AjvClass };
  const formats = require('ajv-formats') as FormatsPlugin | { default: FormatsPlugin };
  const ajv = new Ajv({ ...CONTRACT_AJV_OPTIONS, ...(code && { code }) });
  (typeof formats === 'function' ? formats : formats.default)(ajv);
  // ajv-formats takes any integer as int64. Integers past 2^53 are read
  // exactly (shared/exact-json/) and shown to validators as stand-ins: a
  // safe integer for one within int64, a number past 2^53 for one outside
  // it. So, on such a view, "within int64" is exactly "a safe integer".
  ajv.addFormat('int64', INT64_FORMAT);
  return ajv;
}

export const INT64_FORMAT = { type: 'number', validate: (value: number) => Number.isSafeInteger(value) } as const;

/** A plain ajv with these options (the scenario schema's), loaded on demand as above. */
export function plainAjv(options: Options): AjvInstance {
  const { Ajv } = require('ajv') as { Ajv: AjvClass };
  return new Ajv(options);
}
