import { jsonTreePast } from '../../../shared/json-tree.js';

/**
 * The most JSON values (objects, arrays, strings, numbers, booleans, nulls)
 * in one session stub. A page of 100 animals in a response takes about
 * 510. The byte bound alone does not bound memory: 64 KiB of `{}` are
 * 21,800 objects, 26 MiB of heap for a session's 20 stubs, while this
 * keeps a stub under 0.2 MiB (docs/reference.md, Bounds).
 */
export const MAX_STUB_VALUES = 1024;

/**
 * The deepest nesting in one session stub, the stub object itself being
 * level 1. A response body of animals sits at 5; the checks and the deep
 * comparison of `equals` recurse, and a stack overflow there is a 500.
 */
export const MAX_STUB_DEPTH = 32;

/** Why a stub's body is too large a tree to keep, or undefined. */
export function stubShapeProblem(body: unknown): string | undefined {
  const past = jsonTreePast(body, { values: MAX_STUB_VALUES, depth: MAX_STUB_DEPTH });
  if (past === undefined) return undefined;
  return past.bound === 'values'
    ? `the stub has more than ${past.max} JSON values (objects, arrays and the values in them): a response of 100 animals takes about 510`
    : `the stub nests objects and arrays more than ${past.max} deep`;
}
