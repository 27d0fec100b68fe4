import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  it('says what node:util.isDeepStrictEqual says of values read from JSON', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(fc.property(value, value, (a, b) => jsonEqual(a, b) === isDeepStrictEqual(a, b)));
    fc.assert(fc.property(value, (a) => jsonEqual(a, structuredClone(a)) === isDeepStrictEqual(a, structuredClone(a))));
  });

  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }],
    [{ a: 1 }, { a: 1, b: undefined }],
    [[1, 2], { 0: 1, 1: 2 }],
    [0, -0],
    [Number.NaN, Number.NaN],
    ['1', 1],
    [null, {}],
  ])('%j and %j', (a, b) => {
    expect(jsonEqual(a, b)).toBe(isDeepStrictEqual(a, b));
  });
});
