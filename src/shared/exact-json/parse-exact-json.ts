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

/**
 * The deepest nesting of arrays and objects read. lossless-json recurses,
 * and overflows the stack near 5,000 levels; a 1 MiB text 400,000 levels
 * deep is a tree of gigabytes once a run keeps a few hundred of them.
 * serde_json stops at 128 by default; no document of this interface comes
 * near either.
 */
export const MAX_JSON_DEPTH = 512;

/** Thrown for a text nested past MAX_JSON_DEPTH, or holding more values than asked: either may well be valid JSON. */
export class JsonTooLarge extends Error {
  constructor(what: string) {
    super(`it ${what}, past what is read`);
    this.name = 'JsonTooLarge';
  }
}

/** Thrown, when asked, for an object that names a member twice: RFC 8259 §4 leaves what then happens to the software. */
export class RepeatedMember extends Error {
  constructor(readonly member: string) {
    super(`it names the member ${JSON.stringify(member)} twice in one object (RFC 8259 §4: the names within an object should be unique)`);
    this.name = 'RepeatedMember';
  }
}

/** Which of a member named twice is read: the last (as JSON.parse reads it), the first, or neither (RepeatedMember is thrown). */
export type RepeatedMembers = 'last-wins' | 'first-wins' | 'refused';

/** What parseExactJson's error says of a text, after "the body": `is not valid JSON: …` or `is not read: it nests …`. */
export const unreadJson = (error: unknown): string =>
  error instanceof JsonTooLarge ? `is not read: ${error.message}` : `is not valid JSON: ${(error as Error).message}`;

/**
 * Parses like JSON.parse (same grammar, the last of duplicate members wins unless `duplicates` says otherwise),
 * keeping integers exact. Throws a SyntaxError-like Error on bad JSON, JsonTooLarge past MAX_JSON_DEPTH or past
 * `values` values (objects, arrays, and what they hold): 1 MiB of `[[],[],…]` is a tree of 13 MiB; and
 * RepeatedMember for a member named twice when `duplicates` is `refused`.
 */
export function parseExactJson(text: string, limits: { values?: number; duplicates?: RepeatedMembers } = {}): ExactJson {
  // Each level takes at least two characters, each value one: a shorter text cannot pass a bound.
  if (text.length > Math.min(2 * MAX_JSON_DEPTH, limits.values ?? Infinity)) {
    const past = shapePast(text, limits.values ?? Infinity);
    if (past !== undefined) throw new JsonTooLarge(past);
  }
  const duplicates = limits.duplicates ?? 'last-wins';
  const read = parseWithin(text, duplicates === 'first-wins' && repeatedMember(text) !== undefined);
  // Only well-formed JSON is refused for a repeated member: a text both malformed and repeating is malformed.
  const repeated = duplicates === 'refused' ? repeatedMember(text) : undefined;
  if (repeated !== undefined) throw new RepeatedMember(repeated);
  return read;
}

/** A text within the bounds read, the last of duplicate members kept, or the first when `firstWins`. */
function parseWithin(text: string, firstWins: boolean): ExactJson {
  if (!firstWins && !MAY_LOSE_DIGITS.test(text)) {
    const value: unknown = JSON.parse(text);
    return { value, view: value };
  }
  // Most such texts show every number as it is (a long fraction, a short exponent): then one tree serves both.
  let differs = false;
  const parseNumber = (literal: string) => {
    const read = readNumberLiteral(literal);
    if (!Object.is(read.value, read.view)) differs = true;
    return new Literal(read);
  };
  const tree = parse(text, null, { parseNumber, onDuplicateKey: firstWins ? ({ oldValue }) => oldValue : ({ newValue }) => newValue });
  const value = pick(tree, 'value');
  return { value, view: differs ? pick(tree, 'view') : value };
}

/**
 * Which bound the text passes, read outside strings: brackets open levels,
 * and values are counted as the opening brackets and commas that start one
 * (exact for valid JSON; the parser judges the rest).
 */
function shapePast(text: string, maxValues: number): string | undefined {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
      // An empty array or object holds no value; the first one it holds is counted here.
      if (text.charCodeAt(nextNonSpace(text, i + 1)) !== (c === 0x5b ? 0x5d : 0x7d) && ++values > maxValues) return `holds more than ${maxValues} JSON values`;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++values > maxValues) return `holds more than ${maxValues} JSON values`;
  }
  return undefined;
}

/**
 * The first member name an object of the text names twice (as its
 * escapes decode: `"n\u0061me"` is `name`), or undefined when none does.
 * Read for a text that parses: a string in an object followed by `:` is a
 * member's name.
 */
export function repeatedMember(text: string): string | undefined {
  // The names seen in each open object; undefined for an open array.
  const open: (Set<string> | undefined)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) open.push(new Set());
    else if (c === 0x5b) open.push(undefined);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x22) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      const names = open.at(-1);
      if (names === undefined || text.charCodeAt(nextNonSpace(text, i + 1)) !== 0x3a) continue;
      const name = readString(text.slice(start, i + 1));
      if (name === undefined) return undefined;
      if (names.has(name)) return name;
      names.add(name);
    }
  }
  return undefined;
}

/** A JSON string token's text, or undefined when it is none (the parser says why). */
function readString(token: string): string | undefined {
  try {
    return JSON.parse(token) as string;
  } catch {
    return undefined;
  }
}

/** The index of the first character from `i` that is not JSON whitespace (RFC 8259 §2). */
function nextNonSpace(text: string, i: number): number {
  let at = i;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    at++;
  }
  return at;
}

/**
 * A text read by JSON.parse (numbers as doubles), as a stub's match or a
 * recording reads a body; undefined when it is no JSON or nests past
 * MAX_JSON_DEPTH, as the operation refuses it.
 */
export function readJson(text: string): unknown {
  if (text.length > 2 * MAX_JSON_DEPTH && shapePast(text, Infinity) !== undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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
