import fc from 'fast-check';
import { exactInteger, INT64_MAX, INT64_MIN, type ExactInteger } from '../../shared/exact-json/int64.js';
import type { ValueSchema } from './schema-model.js';

type IntegerSchema = Extract<ValueSchema, { kind: 'integer' }>;

/**
 * The integers of an integer schema, exactly. int64 (and an integer of no
 * format, which JSON Schema does not bound) spans −2^63 … 2^63−1: values
 * past 2^53 are bigints (see shared/exact-json/int64.ts), written with
 * their exact digits and compared digit for digit.
 */
export function integerRange(schema: IntegerSchema): [bigint, bigint] {
  const [low, high] = schema.format === 'int32' ? [-(2n ** 31n), 2n ** 31n - 1n] : [INT64_MIN, INT64_MAX];
  const min = schema.minimum === undefined ? low : BigInt(Math.ceil(schema.minimum));
  const max = schema.maximum === undefined ? high : BigInt(Math.floor(schema.maximum));
  return [min > low ? min : low, max < high ? max : high];
}

const INT32_EDGES = [0n, 1n, -1n, 2n ** 31n - 1n, 2n ** 31n, -(2n ** 31n), -(2n ** 31n) - 1n, 2n ** 32n, 2n ** 32n + 1n];
/**
 * Where JavaScript's doubles stop holding integers (±2^53 and either side:
 * a server that parses into a double rounds 2^53+1), 2^62 and the ends of
 * int64 (a server that clamps, or stores a signed 64-bit value wrongly).
 */
const INT64_EDGES = [...[2n ** 53n - 2n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 10n ** 15n, 2n ** 62n].flatMap((n) => [n, -n]), INT64_MAX, INT64_MIN, INT64_MIN + 1n];

/** The edges of a schema's range, each once, in its exact form. */
export function integerEdges(schema: IntegerSchema): ExactInteger[] {
  const [min, max] = integerRange(schema);
  const edges = [...INT32_EDGES, ...(schema.format === 'int32' ? [] : INT64_EDGES), min, min + 1n, max, max - 1n];
  return [...new Set(edges)].filter((n) => n >= min && n <= max).map(exactInteger);
}

/** An exact integer as a bigint, for fast-check to shrink an example it did not make (unmapper). */
const asBigInt = (value: unknown): bigint => {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return BigInt(value);
  throw new Error('not an exact integer');
};

/** Random integers of the schema: mostly within 32 bits, some anywhere in the range, some at its edges. */
export function integerArbitrary(schema: IntegerSchema): fc.Arbitrary<ExactInteger> {
  const [min, max] = integerRange(schema);
  const clip = (low: bigint, high: bigint) => ({ min: low > min ? low : min, max: high < max ? high : max });
  const small = clip(-(2n ** 31n), 2n ** 31n - 1n);
  return fc.oneof(
    { weight: 3, arbitrary: fc.bigInt(small).map(exactInteger, asBigInt) },
    { weight: 1, arbitrary: fc.bigInt({ min, max }).map(exactInteger, asBigInt) },
    { weight: 1, arbitrary: fc.constantFrom(...integerEdges(schema)) },
  );
}

/** The smallest positive integer in range (else the nearest to it). */
export function harmlessInteger(schema: IntegerSchema): ExactInteger {
  const [min, max] = integerRange(schema);
  const one = min > 1n ? min : 1n;
  return exactInteger(one < max ? one : max);
}
