import fc from 'fast-check';
import { harmlessInteger, integerArbitrary, integerEdges } from './integer-values.js';
import type { ValueSchema } from './schema-model.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';

/**
 * Values a schema allows, as fast-check arbitraries (random, shrinkable) and
 * as boundary lists (every one tried on every run). The boundaries are where
 * servers break: the strings a byte-oriented, normalising, trimming or
 * C-string store changes, and the integers past 32 bits, past 2^53 (where
 * JavaScript's doubles stop) and at the ends of int64 (integer-values.ts).
 */

/** Strings chosen to break the ways a server changes text; each is valid JSON text once escaped. */
export const SPECIAL_STRINGS: readonly string[] = [
  '',
  ' ',
  '  padded  ',
  'Zoë Ångström naïve café',
  'Zoe\u0308 (combining diaeresis, not NFC)',
  'Ñandú Straße İstanbul ǅ',
  '中文名字 日本語 한국어',
  'עברית العربية ‏RTL‏',
  'Ελληνικά Кириллица',
  'देवनागरी ภาษาไทย (vowel signs)',
  '\u1112\u1161\u11ab\u1100\u1173\u11af (Hangul jamo, NFD)',
  '𝔉𝔦𝔡𝔬 🇯🇵 ❤️ 𐌰𐌱',
  '🐕‍🦺 Rex 🐈‍⬛ 👩🏽‍🔬',
  '"quoted" \\back\\slash\\ \'single\' /slash/',
  '\u0000nul\u0001\u0007\u0008\u000b\u000c\u001b\u001f\u007f',
  'tab\tnew\nline\rreturn',
  '\u2028\u2029\ufeffBOM\u200b\u200d',
  '<script>alert(1)</script> &amp; %00 {{7*7}} ${x}',
  "'; DROP TABLE pets; --",
  'x'.repeat(255),
  'x'.repeat(256),
  'é'.repeat(1000),
  'a'.repeat(10_000),
];

/**
 * Long strings as one character repeated: a long name that fails shrinks
 * by its length alone, a binary search of about 14 steps from 10,000 to the
 * length where a server starts to fail (shrinking it as a string would try
 * removing each slice of it, hundreds of thousands of candidates). The
 * unmapper lets fast-check shrink the long boundary names given as examples.
 */
const REPEATED_UNITS = ['a', 'x', 'é', '😀'];
const repeated = fc
  .record({ unit: fc.constantFrom(...REPEATED_UNITS), count: fc.integer({ min: 41, max: 10_000 }) })
  .map(
    ({ unit, count }) => unit.repeat(count),
    (value) => {
      const unit = REPEATED_UNITS.find((u) => typeof value === 'string' && value.length >= u.length && value === u.repeat(value.length / u.length));
      if (unit === undefined) throw new Error('not one character repeated');
      return { unit, count: (value as string).length / unit.length };
    },
  );

/** A random value the schema allows. */
export function arbitraryFor(schema: ValueSchema): fc.Arbitrary<unknown> {
  switch (schema.kind) {
    case 'string': {
      if (schema.enum) return fc.constantFrom(...schema.enum);
      // `repeated` first: fast-check shrinks an example through the first branch that can make it,
      // and asking fc.string about a 10,000-character value takes seconds.
      const strings = fc.oneof(
        { weight: 1, arbitrary: repeated },
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 20 }) },
        { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'\u0000\u001f\t\n"\\ é😀\u0301'), maxLength: 12 }) },
        { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
      );
      // A length limit (the document's, or one a service declares) holds for what is drawn, as for the boundaries.
      return schema.maxLength === undefined && schema.minLength === undefined ? strings : strings.filter((s) => fitsLength(schema, s));
    }
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryFor(schema.items), { maxLength: 5 });
    case 'object': {
      // No .map: fast-check can shrink only values a plain record could have made, as the boundary cases are.
      const fields = Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, arbitraryFor(s)]));
      return fc.record(fields, { requiredKeys: schema.required.filter((n) => n in fields) as never[] });
    }
  }
}

/**
 * The boundary values of one schema: each enum value, the special strings,
 * the integer edges within its range. Undefined for an optional field means
 * "left out", which the object boundaries add.
 */
export function boundaryValues(schema: ValueSchema): unknown[] {
  switch (schema.kind) {
    case 'string':
      return schema.enum ? [...schema.enum] : SPECIAL_STRINGS.filter((s) => fitsLength(schema, s));
    case 'integer':
      return integerEdges(schema);
    case 'boolean':
      return [true, false];
    default:
      return [];
  }
}

/**
 * Objects that each put one field at one of its boundaries, the others drawn
 * by `base`; optional fields are also left out, alone and beside each other
 * field at each of its boundaries.
 */
export function boundaryObjects(schema: Extract<ValueSchema, { kind: 'object' }>, base: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const fields = Object.entries(schema.properties);
  for (const [name, field] of fields) {
    for (const value of boundaryValues(field)) out.push({ ...base, [name]: value });
    if (!schema.required.includes(name)) {
      // Left out, and left out beside each other field's boundaries: a server may refuse a missing
      // optional member only together with another value (no status, and a categoryId past 10).
      const { [name]: _, ...without } = base;
      out.push(without);
      for (const [other, otherField] of fields) {
        if (other !== name) for (const value of boundaryValues(otherField)) out.push({ ...without, [other]: value });
      }
    }
  }
  return out;
}

function fitsLength(schema: Extract<ValueSchema, { kind: 'string' }>, s: string): boolean {
  const length = [...s].length;
  return length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);
}

/**
 * A value of the schema no server has reason to refuse: the first enum
 * value, a plain ASCII string, the smallest positive integer in range. The
 * boundary and negative cases change one field of it, so a server's
 * defensible refusal of some other value (an empty or very long name)
 * cannot hide the case.
 */
export function harmlessValue(schema: ValueSchema, name = 'value'): unknown {
  switch (schema.kind) {
    case 'string':
      return schema.enum ? schema.enum[0] : `contract-test ${name}`.slice(0, schema.maxLength ?? Infinity).padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
      return harmlessInteger(schema);
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties).map(([field, s]) => [field, harmlessValue(s, field)]));
  }
}

/** A value as a short label: long strings by their length. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string' && value.length > 40) return `a ${value.length}-character string`;
  return stringifyExactJson(value) ?? String(value);
}
