import { decodeEscapes } from './decode-escapes.js';

/** The text shown in place of the API key, everywhere. */
export const REDACTED_KEY = '<API key>';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Replaces every secret in text a server sent back (or an error message),
 * in the forms a server plausibly echoes it in, in any letter case:
 *
 * - as sent, or with any of its characters escaped as JSON, percent-encoding
 *   or HTML write them (decode-escapes.ts), a space also as `+` (a form's);
 * - in base64 and base64url (RFC 4648 §4, §5), wherever it stands in the
 *   encoded text: each of the three alignments of its bytes is searched, so
 *   it is found in the base64 of the key alone, of `Bearer key`, of Basic
 *   credentials (`user:key`, `key:`) or of a document holding it. Every
 *   character that carries a bit of the key is replaced, the one or two at
 *   its edges that it shares with the bytes around it included. Only for a
 *   secret of 8 characters or more: a shorter one's base64 is a few
 *   characters, which ordinary base64 text could hold by chance.
 *
 * The text is searched decoded, and a match replaces the escapes it came
 * from; also as it is when a secret itself holds what reads as an escape
 * (`%41`, `&amp;`). A text cut short (`cut`) also loses the first
 * characters of a secret, or the start of an escape, that it ends in.
 *
 * The HTTP client passes a key only when it has 8 characters or more: so
 * short a string turns up inside ordinary words (`keep-alive` for a key
 * `k`), and replacing it there would garble the report without hiding more.
 */
export function keyRedactor(secrets: readonly string[], shown: string): (text: string, cut?: boolean) => string {
  const unique = [...new Set(secrets)].filter((secret) => secret !== '');
  if (unique.length === 0) return (text) => text;
  const forms = unique.flatMap((secret) => [textForm(secret), ...(secret.length >= 8 ? base64Forms(secret) : [])]);
  // The longest first, so that a secret holding another (a near-miss: the key and a character) is replaced whole.
  const pattern = new RegExp(forms.sort((a, b) => b.length - a.length).map((form) => form.join('')).join('|'), 'gi');
  // `abcd` → `a(?:b(?:c)?)?`: a form's first positions, then an escape cut short, at the very end.
  const startOf = (form: Form) => form.slice(0, -1).reduceRight((inner, position) => `${position}(?:${inner})?`, '');
  // Positions, and the UTF-16 units of the decoded text they can span (a character past U+FFFF is two).
  const longest = Math.max(...forms.map((form) => form.length));
  const longestUnits = Math.max(longest, ...unique.map((secret) => secret.length));
  const partial = longest > MAX_NESTED_FORM ? undefined : new RegExp(`(?:${forms.filter((form) => form.length > 1).map(startOf).join('|')})?${UNFINISHED_ESCAPE}$`, 'i');
  // Decoding changes only text from a `\`, `%` or `&` on: a secret without them is found in the decoded text wherever it stood as itself.
  const searchAsIs = unique.some((secret) => ESCAPE_START.test(secret));
  const redact = (text: string) => {
    // No escape in it (most text): the decoded text is the text itself, and decoding it would only cost time.
    if (!ESCAPE_START.test(text)) return replaceSpans(text, [...matches(pattern, text)], shown);
    const decoded = decodeEscapes(text);
    const spans = searchAsIs ? [...matches(pattern, text)] : [];
    for (const [start, end] of matches(pattern, decoded.text)) spans.push([decoded.from[start] as number, decoded.to[end - 1] as number]);
    return replaceSpans(text, spans, shown);
  };
  return (text, cut = false) => {
    const redacted = redact(text);
    if (!cut) return redacted;
    // A text cut short may end in a secret's first characters, or inside an escape of one, which no form can match: they go too.
    const decoded = ESCAPE_START.test(redacted) ? decodeEscapes(redacted) : undefined;
    const plain = decoded?.text ?? redacted;
    // A secret too long to search for by its start: the last characters that could hold a start of it go, whatever they are.
    const at = partial === undefined ? Math.max(0, plain.length - (longestUnits - 1)) : plain.search(partial);
    if (at === -1 || at === plain.length) return redacted;
    return redacted.slice(0, decoded === undefined ? at : decoded.from[at]);
  };
}

/**
 * The most positions a form may have to have its starts searched for by one
 * regular expression. V8 compiles the nested groups of `startOf` one level
 * per position, recursively: 500 take it 0.3 s, and 8,000 (a key a client
 * can send in 16 KiB of headers) end the process with a fatal out-of-memory
 * error of its compiler, which no try can catch.
 */
const MAX_NESTED_FORM = 256;

/** Where every escape decode-escapes.ts reads begins: a text without one is its own decoding. */
const ESCAPE_START = /[\\%&]/;

/** The start of an escape (decode-escapes.ts) that the end of a cut text left unfinished. */
const UNFINISHED_ESCAPE = '(?:%[0-9a-f]?|\\\\+(?:u[0-9a-f]{0,3})?|&(?:#(?:x[0-9a-f]{0,5}|[0-9]{0,6})|[a-z]{0,3})?)?';

/** A form: the regular expression of each of its positions. */
type Form = string[];

/** The secret as text; a space may be a form's `+`. */
const textForm = (secret: string): Form => [...secret].map((c) => (c === ' ' ? '[ +]' : literal(c)));

/**
 * The secret's bytes at offsets 0, 1 and 2 of a base64 text, in both
 * alphabets. A character holding bits of the key and of a neighbour (the
 * first at offsets 1 and 2, the last unless the bits end on a character's
 * edge) may be any of those whose key bits are the key's.
 */
function base64Forms(secret: string): Form[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: Form[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    const firstBit = 8 * offset;
    const endBit = 8 * (offset + bytes.length);
    const start = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    const value = (index: number) => BASE64.indexOf(encoded[index] as string);
    const positions: string[][] = [];
    // Its low bits are the key's first ones; the bytes before it choose the high ones.
    if (firstBit % 6 !== 0) positions.push(spread(value(start - 1), (x) => x << (6 * start - firstBit)));
    for (const c of encoded.slice(start, end)) positions.push([c]);
    // Its high bits are the key's last ones; the bytes after it (or padding's zeros) choose the low ones.
    if (endBit % 6 !== 0) positions.push(spread(value(end), (x) => x));
    const url = positions.map((chars) => chars.map((c) => (c === '+' ? '-' : c === '/' ? '_' : c)));
    forms.push(...[positions, url].map((form) => form.map((chars) => (chars.length === 1 ? literal(chars[0] as string) : `[${chars.map(literal).join('')}]`))));
  }
  return forms;
}

/** The base64 characters `known + step(x)` for every x the unknown bits can take. */
function spread(known: number, step: (x: number) => number): string[] {
  const chars: string[] = [];
  for (let x = 0; known + step(x) < 64; x++) chars.push(BASE64[known + step(x)] as string);
  return chars;
}

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function* matches(pattern: RegExp, text: string): Generator<[number, number]> {
  for (const match of text.matchAll(pattern)) yield [match.index, match.index + match[0].length];
}

/** The text with each span, or each run of overlapping spans, replaced by `shown`. */
function replaceSpans(text: string, spans: Array<[number, number]>, shown: string): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let kept = 0;
  for (const [start, end] of spans) {
    if (end <= kept) continue;
    parts.push(text.slice(kept, Math.max(kept, start)));
    if (start >= kept) parts.push(shown);
    kept = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}
