import type { ValidateFunction } from 'ajv';
import { sha256, toHex } from '../shared/digest.js';

let loaded: ReadonlyMap<string, ValidateFunction> = new Map();

/**
 * The validators compiled ahead of time with ajv standalone, by key (see
 * `validatorKey`): the node adapter hands in the build's
 * (load-precompiled-validators.ts); elsewhere there are none, and each is
 * compiled when first needed. A key hashes everything a validator depends
 * on, so a schema that changed since the build finds no entry and is
 * compiled at run time: the validators are still the document's, never a
 * stale copy.
 */
export const precompiledValidators = (): ReadonlyMap<string, ValidateFunction> => loaded;

/** Takes `validators` as the precompiled ones (the build's, read by the node adapter). */
export function usePrecompiledValidators(validators: ReadonlyMap<string, ValidateFunction>): void {
  loaded = validators;
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
  return toHex(sha256(parts.map((part) => `${part.length}:${part}`).join('')));
}
