import fc from 'fast-check';
import type { ValueSchema } from './schema-model.js';

/**
 * Values a schema allows, as fast-check arbitraries (random, shrinkable) and
 * as boundary lists (every one tried on every run). The boundaries are where
 * servers break: the strings a byte-oriented, normalising, trimming or
 * C-string store changes, and the integers past 32 bits and at the edge of
 * what a JSON number carries exactly.
 */

/** The integers JSON carries exactly (RFC 8259 §6): an int64 field is tried within ±(2^53−1). */
const SAFE = Number.MAX_SAFE_INTEGER;

const INT32_EDGES = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 32 + 1];
const INT53_EDGES = [SAFE, -SAFE, 2 ** 53 - 2, 1e15];

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

/** A random value the schema allows. */
export function arbitraryFor(schema: ValueSchema): fc.Arbitrary<unknown> {
  switch (schema.kind) {
    case 'string':
      if (schema.enum) return fc.constantFrom(...schema.enum);
      return fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 20 }) },
        { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'\u0000\u001f\t\n"\\ é😀\u0301'), maxLength: 12 }) },
        { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
      );
    case 'integer': {
      const [min, max] = integerRange(schema);
      return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(...integerEdges(schema)) });
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryFor(schema.items), { maxLength: 5 });
    case 'object': {
      const optional = Object.keys(schema.properties).filter((name) => !schema.required.includes(name));
      const fields = Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, arbitraryFor(s)]));
      return fc.record(fields, { requiredKeys: schema.required.filter((n) => n in fields) as never[] }).map((value) => withoutUndefined(value, optional));
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
 * by `base`; optional fields are also left out once.
 */
export function boundaryObjects(schema: Extract<ValueSchema, { kind: 'object' }>, base: Record<string, unknown>): Array<{ label: string; value: Record<string, unknown> }> {
  const out: Array<{ label: string; value: Record<string, unknown> }> = [];
  for (const [name, field] of Object.entries(schema.properties)) {
    for (const value of boundaryValues(field)) out.push({ label: `${name} = ${describeValue(value)}`, value: { ...base, [name]: value } });
    if (!schema.required.includes(name)) {
      const { [name]: _, ...without } = base;
      out.push({ label: `${name} left out`, value: without });
    }
  }
  return out;
}

export function integerRange(schema: Extract<ValueSchema, { kind: 'integer' }>): [number, number] {
  const wide = schema.format === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [-SAFE, SAFE];
  return [Math.max(schema.minimum ?? -Infinity, wide[0] as number), Math.min(schema.maximum ?? Infinity, wide[1] as number)];
}

function integerEdges(schema: Extract<ValueSchema, { kind: 'integer' }>): number[] {
  const [min, max] = integerRange(schema);
  const edges = [...INT32_EDGES, ...(schema.format === 'int32' ? [] : INT53_EDGES), min, min + 1, max, max - 1];
  return [...new Set(edges)].filter((n) => n >= min && n <= max);
}

function fitsLength(schema: Extract<ValueSchema, { kind: 'string' }>, s: string): boolean {
  const length = [...s].length;
  return length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);
}

function withoutUndefined(value: Record<string, unknown>, optional: string[]): Record<string, unknown> {
  for (const name of optional) if (value[name] === undefined) delete value[name];
  return value;
}

/** A value as a short label: long strings by their length. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string' && value.length > 40) return `a ${value.length}-character string`;
  return JSON.stringify(value) ?? String(value);
}
