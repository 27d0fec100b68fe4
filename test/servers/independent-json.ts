/**
 * JSON for the independent Animal Store server: a strict RFC 8259 reader that
 * keeps every number as the text it was written in, so an int64 such as
 * 9007199254740993 is never rounded through a double, and the int64 reading
 * of that text. Written for this server alone (see independent-server.ts).
 */

/** A JSON number, kept as written: the reader never turns it into a double. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** Objects are Maps, so a member called `__proto__` is just a member. */
export type Json = null | boolean | string | JsonNumber | Json[] | Map<string, Json>;

/** Deeper nesting than this is refused as malformed: a stack guard, as most parsers in the wild have one. */
export const MAX_DEPTH = 512;

export class JsonSyntaxError extends Error {}

/** Reads one JSON text; throws JsonSyntaxError on anything RFC 8259 does not allow (a byte order mark included). */
export function parseJson(text: string): Json {
  const reader = new Reader(text);
  reader.skipSpace();
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.at < text.length) reader.fail('text after the JSON value');
  return value;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${this.at}`);
  }

  skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }

  value(depth: number): Json {
    const c = this.text[this.at];
    if (c === '{') return this.object(depth + 1);
    if (c === '[') return this.array(depth + 1);
    if (c === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('no JSON value');
    this.at += match[0].length;
    return new JsonNumber(match[0]);
  }

  private enter(depth: number): void {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.at++;
    this.skipSpace();
  }

  private object(depth: number): Map<string, Json> {
    this.enter(depth);
    // Duplicate members: the last one wins, as with JSON.parse.
    const members = new Map<string, Json>();
    if (this.text[this.at] === '}') {
      this.at++;
      return members;
    }
    for (;;) {
      if (this.text[this.at] !== '"') this.fail('expected a member name');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail("expected ':'");
      this.at++;
      this.skipSpace();
      members.set(key, this.value(depth));
      this.skipSpace();
      const c = this.text[this.at++];
      if (c === '}') return members;
      if (c !== ',') this.fail("expected ',' or '}'");
      this.skipSpace();
    }
  }

  private array(depth: number): Json[] {
    this.enter(depth);
    const items: Json[] = [];
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth));
      this.skipSpace();
      const c = this.text[this.at++];
      if (c === ']') return items;
      if (c !== ',') this.fail("expected ',' or ']'");
      this.skipSpace();
    }
  }

  private string(): string {
    this.at++;
    let out = '';
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) this.fail('unterminated string');
      if (c === '"') {
        this.at++;
        return out;
      }
      if (c < ' ') this.fail('unescaped control character in a string');
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      const e = this.text[this.at + 1] ?? '';
      if (e === 'u') {
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
      } else if (e in ESCAPES) {
        out += ESCAPES[e];
        this.at += 2;
      } else {
        this.fail('bad escape');
      }
    }
  }
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * The int64 a JSON number stands for. As in JSON Schema, a number is an
 * integer by its value, not its spelling: 2.0 and 2e0 are the integer 2.
 * Worked out on the digits with BigInt, so nothing is rounded.
 */
export function int64OfNumber(text: string): bigint | 'not-integer' | 'out-of-range' {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (match === null) return 'not-integer';
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  let digits = (whole! + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let exponent = Number(exponentText) - fraction.length;
  while (exponent < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  if (exponent < 0) return 'not-integer';
  // 2^63 has 19 digits: anything longer is past int64 (and 1e999999999 is never expanded).
  if (digits.length + exponent > 19) return 'out-of-range';
  const value = BigInt(sign + digits) * 10n ** BigInt(exponent);
  return value < INT64_MIN || value > INT64_MAX ? 'out-of-range' : value;
}
