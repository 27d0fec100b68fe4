import fc from 'fast-check';
import { jsonText, RawNumber } from './json-text.js';

/**
 * A JSON value written another way, generated from RFC 8259's grammar
 * rather than listed: at each place a production allows another spelling,
 * a choice picks one of its alternatives. `text` holds the choices of the
 * spellings RFC 8259 makes the same value (whitespace, member order,
 * escapes), read in order as the text is written; `numbers` those of each
 * number, a spelling where the interface is silent (below). Past a list's
 * end, 0: all zeros is the text as jsonText writes it, so a failure
 * shrinks to the fewest places spelled otherwise, and a new alternative of
 * a production is one more entry in its list.
 */
export interface JsonSpelling {
  text?: readonly number[];
  numbers?: readonly number[];
}

/** §2: "Insignificant whitespace is allowed before or after any of the six structural characters", and around the value; `ws = *( %x20 / %x09 / %x0A / %x0D )`. */
const WHITESPACE: readonly string[] = ['', ' ', '\t', '\n', '\r\n', ' \t\r\n '];

/** §7: "Any character may be escaped": as JSON.stringify writes it; `\u` with lower-case hex; with upper-case hex; the two-character escape where there is one (`\/` for the solidus). A character past the BMP escapes as its surrogate pair. */
const ESCAPES = 4;
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * §6: an integer written with a fraction or an exponent (`1.0`, `1e0`,
 * `10E-1`, `1.5e1` for 15). The grammar allows them and they are the same
 * number, but JSON Schema's drafts disagree on whether such a number is
 * still an integer (draft 4: no; draft 6 on: yes), and the interface says
 * `integer`: a server may accept or refuse them, only alike with and
 * without the key (a refusal is excused when the number spelling alone
 * gets it). No leading zeros and no `+` before the number: not the grammar.
 */
const NUMBER_FORMS: ReadonlyArray<(digits: string) => string> = [
  (d) => d,
  (d) => `${d}.0`,
  (d) => `${d}e0`,
  (d) => `${d}E+0`,
  (d) => `${d}.000`,
  (d) => (d === '0' ? '0.0E1' : `${d}0E-1`),
  (d) => (d.length > 1 ? `${d[0]}.${d.slice(1)}e${d.length - 1}` : `${d}.0e0`),
];

/** The most places a spelling chooses for: a NewPet of three members with a name of some length. */
const PLACES = 160;
const MOST = Math.max(WHITESPACE.length, ESCAPES, NUMBER_FORMS.length);

/**
 * A spelling drawn, shrinking toward fewer choices and toward 0 (members in
 * order, no whitespace, minimal escapes). Numbers stay plain: their other
 * spellings are a form the interface is silent on, tried alone on every
 * run (everyNumberSpelling), where a refusal leaves nothing else unjudged.
 */
export const jsonSpellingArbitrary = (): fc.Arbitrary<JsonSpelling> => fc.record({ text: fc.array(fc.nat({ max: MOST - 1 }), { maxLength: PLACES }), numbers: fc.array(fc.nat({ max: 0 }), { maxLength: 0 }) });

/** The cases tried on every run: the k-th takes at place i the alternative (i + k) modulo its count, so every place gets every alternative within a few cases; the numbers stay plain (a form the interface is silent on goes alone). */
export const everyJsonSpelling = (count: number): JsonSpelling[] => Array.from({ length: count }, (_, k) => ({ text: Array.from({ length: PLACES }, (_, i) => (i + k + 1) % MOST), numbers: [] }));

/** The spellings of numbers alone: each alternative of the number production, every number of the value so. */
export const everyNumberSpelling = (): JsonSpelling[] => NUMBER_FORMS.slice(1).map((_, k) => ({ text: [], numbers: [k + 1, k + 1, k + 1, k + 1] }));

/** Whether a spelling writes a number otherwise than plainly. */
export const spellsNumbers = (spelling: JsonSpelling | undefined): boolean => (spelling?.numbers ?? []).some((c) => c !== 0);

/** Whether a spelling writes the text otherwise than plainly. */
export const spellsText = (spelling: JsonSpelling | undefined): boolean => (spelling?.text ?? []).some((c) => c !== 0);

const chooser = (choices: readonly number[] = []) => {
  let at = 0;
  return (alternatives: number) => (choices[at++] ?? 0) % alternatives;
};

/** The value's JSON text in the spelling. */
export function spellJson(value: unknown, spelling: JsonSpelling): string {
  const text = chooser(spelling.text);
  const number = chooser(spelling.numbers);
  const ws = () => WHITESPACE[text(WHITESPACE.length)] as string;
  const write = (v: unknown): string => {
    if (typeof v === 'string') return escaped(v, text);
    if (typeof v === 'number' || typeof v === 'bigint' || v instanceof RawNumber) return spelledNumber(jsonText(v), number);
    if (Array.isArray(v)) return `[${v.length ? v.map((item) => `${ws()}${write(item)}${ws()}`).join(',') : ws()}]`;
    if (typeof v !== 'object' || v === null || typeof (v as { toJSON?: unknown }).toJSON === 'function') return jsonText(v);
    const members = reordered(Object.entries(v).filter(([, m]) => m !== undefined), text);
    return `{${members.length ? members.map(([name, m]) => `${ws()}${escaped(name, text)}${ws()}:${ws()}${write(m)}${ws()}`).join(',') : ws()}}`;
  };
  const before = ws();
  const body = write(value);
  return `${before}${body}${ws()}`;
}

/** §4: "An object is an unordered collection": rotated by the choice, and reversed past the members' count. */
function reordered<T>(members: T[], choose: (n: number) => number): T[] {
  if (members.length < 2) return members;
  const c = choose(2 * members.length);
  const rotated = [...members.slice(c % members.length), ...members.slice(0, c % members.length)];
  return c >= members.length ? rotated.reverse() : rotated;
}

const unit = (code: number, upper: boolean) => `\\u${code.toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;

/** A string literal, each character (a code point: a surrogate pair is escaped whole or not at all) in its chosen escape. */
function escaped(text: string, choose: (n: number) => number): string {
  let out = '"';
  for (const c of text) {
    const choice = choose(ESCAPES);
    const units = Array.from({ length: c.length }, (_, i) => c.charCodeAt(i));
    if (choice === 0) out += JSON.stringify(c).slice(1, -1);
    else if (choice === 3 && SHORT[c] !== undefined) out += SHORT[c];
    else out += units.map((u) => unit(u, choice === 2)).join('');
  }
  return `${out}"`;
}

/** An integer's literal in its chosen form; any other number as it is. */
function spelledNumber(literal: string, choose: (n: number) => number): string {
  const match = /^(-?)(\d+)$/.exec(literal);
  const form = choose(NUMBER_FORMS.length);
  return match ? `${match[1]}${(NUMBER_FORMS[form] as (d: string) => string)(match[2] as string)}` : literal;
}
