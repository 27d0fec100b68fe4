import type { Ajv, Options } from 'ajv';

/**
 * ajv, for a schema compiled at run time (one the build did not
 * precompile: an edited document, `--contract`, a scenario's stub bodies,
 * any schema in a runtime without the build's validators). Not imported
 * here: importing it costs about 30 ms, which the node server, whose
 * validators are precompiled, need not pay at every start. In node it is
 * required when first needed, through `process.getBuiltinModule` (node
 * 20.16 and later), so this file imports nothing node has alone; the
 * engine, which runs where there is no `require`, hands it in first
 * (static-ajv.ts).
 */
export interface AjvModule {
  Ajv: new (options: Options) => Ajv;
  addFormats: (ajv: Ajv) => unknown;
}

let provided: AjvModule | undefined;

/** Takes `module` as the ajv to compile with (static-ajv.ts: imported, where there is no `require`). */
export function provideAjv(module: AjvModule): void {
  provided = module;
}

type NodeModule = { createRequire(from: string): (id: string) => unknown };
type WithBuiltins = { process?: { getBuiltinModule?: (id: string) => unknown } };

function ajvModule(): AjvModule {
  if (provided) return provided;
  const nodeModule = (globalThis as WithBuiltins).process?.getBuiltinModule?.('node:module') as NodeModule | undefined;
  if (!nodeModule) throw new Error('ajv was not loaded: in this runtime, import static-ajv.ts first (the engine does)');
  const load = nodeModule.createRequire(import.meta.url);
  const formats = load('ajv-formats') as { default?: AjvModule['addFormats'] } & AjvModule['addFormats'];
  provided = { Ajv: (load('ajv') as { Ajv: AjvModule['Ajv'] }).Ajv, addFormats: formats.default ?? formats };
  return provided;
}

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
  const { Ajv, addFormats } = ajvModule();
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
  return new (ajvModule().Ajv)(options);
}
