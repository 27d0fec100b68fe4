import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { packageRoot } from '../shared/package-root.js';

const require = createRequire(import.meta.url);

/** Where the build writes the validators it precompiled (`npm run build`). */
export const precompiledValidatorsPath = (): string => join(packageRoot(), 'dist', 'generated', 'validators.cjs');

let loaded: ReadonlyMap<string, ValidateFunction> | undefined;

/**
 * The validators the build compiled ahead of time with ajv standalone, by
 * key (see `validatorKey`); empty when there is no build output. A key
 * hashes everything a validator depends on, so a schema that changed since
 * the build finds no entry and is compiled at run time: the validators are
 * still the document's, never a stale copy.
 */
export function precompiledValidators(): ReadonlyMap<string, ValidateFunction> {
  if (loaded) return loaded;
  const path = precompiledValidatorsPath();
  loaded = existsSync(path) ? new Map(Object.entries(require(path) as Record<string, ValidateFunction>)) : new Map();
  return loaded;
}

export interface ValidatorTally {
  /** Validators taken from the build's output. */
  precompiled: number;
  /** Validators compiled at run time, because the build had none under their key. */
  compiled: number;
}

const tally: ValidatorTally = { precompiled: 0, compiled: 0 };

/**
 * The build's validator under `key`, else the one `compile` makes; either
 * way counted in the process's tally, so the mock can say at start-up how
 * many it had to compile (none, for the shipped files after a build).
 */
export function precompiledOrCompiled(key: string, compile: () => ValidateFunction): ValidateFunction {
  const found = precompiledValidators().get(key);
  if (found) {
    tally.precompiled += 1;
    return found;
  }
  tally.compiled += 1;
  return compile();
}

/** How many validators this process took precompiled and compiled so far (a copy). */
export const validatorTally = (): ValidatorTally => ({ ...tally });

/** The key of a validator: a SHA-256 over what it is compiled from (options, referenced documents, schema), in order. */
export function validatorKey(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return hash.digest('hex');
}
