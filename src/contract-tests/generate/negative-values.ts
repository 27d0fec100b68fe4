import { exactInteger } from '../../shared/exact-json/int64.js';
import { RawNumber } from './json-text.js';
import { integerRange } from './integer-values.js';
import type { ValueSchema } from './schema-model.js';
import { stringifyExactJson } from '../../shared/exact-json/stringify-exact-json.js';

/**
 * Values a schema refuses, one broken constraint each, the way Schemathesis
 * builds its negative cases: every other JSON type, non-integers, integers
 * past the range, enum values wrongly cased or padded. Each has a label
 * naming what it breaks.
 */
export interface BadValue {
  label: string;
  value: unknown;
}

const TYPES: Array<{ type: string; samples: (schema: ValueSchema) => unknown[] }> = [
  { type: 'null', samples: () => [null] },
  { type: 'boolean', samples: () => [true, false] },
  { type: 'number', samples: (s) => (s.kind === 'integer' ? [] : [0, 42, 1.5]) },
  { type: 'string', samples: (s) => (s.kind === 'integer' || s.kind === 'number' ? ['2', ''] : ['text']) },
  { type: 'array', samples: () => [[], ['x']] },
  { type: 'object', samples: () => [{}, { value: 1 }] },
];

const JSON_TYPE: Record<ValueSchema['kind'], string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', array: 'array', object: 'object' };

/** Every value of another JSON type, and every value of the right type that breaks a constraint. */
export function badValues(schema: ValueSchema): BadValue[] {
  const out: BadValue[] = [];
  for (const { type, samples } of TYPES) {
    if (type === JSON_TYPE[schema.kind]) continue;
    for (const value of samples(schema)) out.push({ label: `a ${type} (${stringifyExactJson(value)})`, value });
  }
  if (schema.kind === 'integer') {
    const [min, max] = integerRange(schema);
    out.push({ label: 'a non-integer (1.5)', value: 1.5 }, { label: 'a non-integer (-0.5)', value: -0.5 }, { label: 'a non-integer (1e-7)', value: 1e-7 });
    if (schema.minimum !== undefined) out.push({ label: `below the minimum (${min - 1n})`, value: exactInteger(min - 1n) });
    if (schema.maximum !== undefined) out.push({ label: `above the maximum (${max + 1n})`, value: exactInteger(max + 1n) });
    const bits = schema.format === 'int32' ? 31 : 63;
    out.push(
      { label: `past the ${schema.format ?? 'integer'} range (2^${bits})`, value: new RawNumber(pow2(bits)) },
      { label: `past the ${schema.format ?? 'integer'} range (-2^${bits}-1)`, value: new RawNumber(`-${increment(pow2(bits))}`) },
    );
  }
  if (schema.kind === 'string' && schema.enum) {
    // Every allowed value wrongly cased, padded or cut with a NUL, then values that are none of them.
    const wrong = new Set(schema.enum.flatMap((v) => [v.toUpperCase(), capitalise(v), ` ${v}`, `${v} `, `${v}\u0000`]));
    for (const value of ['', 'unknown-value', schema.enum.join(',')]) wrong.add(value);
    for (const value of wrong) if (!schema.enum.includes(value)) out.push({ label: `not one of ${schema.enum.join(', ')} (${stringifyExactJson(value)})`, value });
  }
  if (schema.kind === 'string' && schema.maxLength !== undefined) out.push({ label: `longer than ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength + 1) });
  if (schema.kind === 'string' && schema.minLength !== undefined && schema.minLength > 0) out.push({ label: `shorter than ${schema.minLength}`, value: 'x'.repeat(schema.minLength - 1) });
  return out;
}

/**
 * Raw parameter texts a schema refuses: query strings and path segments are
 * text, so their negatives are texts too (not-a-number, decimals, exponents,
 * hex, padding, other digits, the range's edges).
 */
export function badTexts(schema: ValueSchema): BadValue[] {
  const out: BadValue[] = [];
  if (schema.kind === 'integer') {
    const [min, max] = integerRange(schema);
    const texts = ['', 'abc', '1.5', '1.0', '1e1', '0x10', ' 5', '5 ', '+5', '٣', '5abc', 'null', 'true', '[]', pow2(schema.format === 'int32' ? 31 : 63), '9'.repeat(30)];
    if (schema.minimum !== undefined) texts.push(String(min - 1n), String(min - 1000n));
    if (schema.maximum !== undefined) texts.push(String(max + 1n), String(max * 10n));
    for (const text of new Set(texts)) out.push({ label: `${stringifyExactJson(text)} for ${schema.format ?? 'an integer'}`, value: text });
  }
  if (schema.kind === 'string' && schema.enum) {
    for (const bad of badValues(schema)) if (typeof bad.value === 'string') out.push(bad);
  }
  return out;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 2^n as decimal digits, exactly (BigInt: past 2^53 a Number would round). */
function pow2(n: number): string {
  return (2n ** BigInt(n)).toString();
}

function increment(digits: string): string {
  return (BigInt(digits) + 1n).toString();
}
