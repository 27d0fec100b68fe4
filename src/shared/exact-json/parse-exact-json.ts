import { parse } from 'lossless-json';
import { readNumberLiteral, type ReadNumber } from './number-literal.js';

/**
 * A JSON text read without losing digits: `value` holds every integer
 * exactly (a bigint past 2^53, see int64.ts), `view` is the same value as a
 * schema validator should judge it (see int64StandIn). JavaScript's
 * JSON.parse rounds an integer past 2^53 to the nearest double, silently.
 */
export interface ExactJson {
  value: unknown;
  view: unknown;
}

/**
 * A text that may hold a number JSON.parse would change: 16 or more digits
 * (and dots) in a row, or an exponent. Anything else has only numbers of at
 * most 15 significant digits, which a double holds exactly, so the common
 * body takes JSON.parse (lossless-json parses in JavaScript, several times
 * slower: BENCHMARKS.md, "int64 bodies").
 */
const MAY_LOSE_DIGITS = /[\d.]{16}|\d[eE]/;

/** Parses like JSON.parse (same grammar, the last of duplicate members wins), keeping integers exact. Throws a SyntaxError-like Error on bad JSON. */
export function parseExactJson(text: string): ExactJson {
  if (!MAY_LOSE_DIGITS.test(text)) {
    const value: unknown = JSON.parse(text);
    return { value, view: value };
  }
  const tree = parse(text, null, { parseNumber: (literal) => new Literal(readNumberLiteral(literal)), onDuplicateKey: ({ newValue }) => newValue });
  return { value: pick(tree, 'value'), view: pick(tree, 'view') };
}

class Literal {
  constructor(readonly read: ReadNumber) {}
}

/** The tree with each number literal replaced by its value or its view. */
function pick(node: unknown, side: keyof ReadNumber): unknown {
  if (node instanceof Literal) return node.read[side];
  if (Array.isArray(node)) return node.map((item) => pick(item, side));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  // defineProperty: a member named __proto__ stays a member, as JSON.parse makes it.
  for (const [key, item] of Object.entries(node)) Object.defineProperty(out, key, { value: pick(item, side), enumerable: true, writable: true, configurable: true });
  return out;
}
