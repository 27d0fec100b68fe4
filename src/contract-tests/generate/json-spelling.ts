import { jsonText } from './json-text.js';
import type { JsonSpelling } from './variations.js';

/**
 * A JSON value written another way that means the same (RFC 8259): its
 * objects' members in another order (§4: an object is unordered), whitespace
 * between tokens and around the value (§2), characters of strings and
 * member names escaped (§7: any character may be; §8.3: names compare
 * after escapes are undone). Numbers, true, false and null are written as
 * jsonText writes them: an integer has one spelling in JSON's grammar
 * without a fraction or an exponent, and with one (`1.0`, `1e0`) JSON
 * Schema drafts disagree on whether it is still an integer.
 */
export function spellJson(value: unknown, spelling: JsonSpelling): string {
  const text = write(value, spelling, 0);
  return spelling.whitespace === 'surrounding' ? ` \n${text}\r\n\t ` : text;
}

function write(value: unknown, spelling: JsonSpelling, depth: number): string {
  if (typeof value === 'string') return escaped(value, spelling.escapes);
  if (Array.isArray(value)) return wrap('[', ']', value.map((item) => write(item, spelling, depth + 1)), spelling, depth);
  // A leaf with its own JSON (a RawNumber) is written by jsonText, as unvaried bodies are.
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') return jsonText(value);
  const members = reordered(Object.entries(value).filter(([, v]) => v !== undefined), spelling.order);
  const colon = spelling.whitespace === 'none' || spelling.whitespace === 'surrounding' ? ':' : ': ';
  return wrap('{', '}', members.map(([name, v]) => `${escaped(name, spelling.escapes)}${colon}${write(v, spelling, depth + 1)}`), spelling, depth);
}

function reordered<T>(members: T[], order: JsonSpelling['order']): T[] {
  if (order === 'reversed') return [...members].reverse();
  if (order === 'rotated') return [...members.slice(1), ...members.slice(0, 1)];
  return members;
}

/** Items between brackets: compact, with spaces, or one per line (CRLF and tabs, the other two whitespace characters of §2). */
function wrap(open: string, close: string, items: string[], spelling: JsonSpelling, depth: number): string {
  if (items.length === 0) return open + close;
  if (spelling.whitespace === 'spaces') return `${open} ${items.join(', ')} ${close}`;
  if (spelling.whitespace === 'pretty') {
    const indent = '\t'.repeat(depth + 1);
    return `${open}\r\n${indent}${items.join(`,\r\n${indent}`)}\r\n${'\t'.repeat(depth)}${close}`;
  }
  return open + items.join(',') + close;
}

const unit = (code: number, upper: boolean) => `\\u${code.toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;

/** A string literal with the escapes of `escapes`; each UTF-16 code unit escaped alone, so a character past the BMP becomes its surrogate pair. */
function escaped(text: string, escapes: JsonSpelling['escapes']): string {
  const minimal = JSON.stringify(text);
  if (escapes === 'non-ASCII escaped') return minimal.replace(/[^\x20-\x7e]/g, (c) => unit(c.charCodeAt(0), false));
  if (escapes === 'every character escaped') return `"${Array.from({ length: text.length }, (_, i) => unit(text.charCodeAt(i), true)).join('')}"`;
  if (escapes === 'short escapes as \\u, solidus escaped') {
    const SHORT: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9, '"': 34, '\\': 92 };
    return minimal.replace(/\\(["\\bfnrt])|\//g, (match, short?: string) => (short === undefined ? '\\/' : unit(SHORT[short] as number, false)));
  }
  return minimal;
}
