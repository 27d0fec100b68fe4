/** Text with its escapes decoded, and where in the original each decoded character came from. */
export interface Decoded {
  text: string;
  /** For each UTF-16 unit of `text`: where its escape (or itself) starts and ends in the original. */
  from: Int32Array;
  to: Int32Array;
}

const HEX = /^[0-9a-f]+$/i;
const REFERENCE = /&(?:#x([0-9a-f]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/iy;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes, in one pass, the escapes a server may write a credential with
 * when it echoes it: JSON's (`\/`, `\"`, `\uXXXX`, RFC 8259 §7; with a run
 * of backslashes, as JSON written inside a JSON string has), percent-encoding
 * (its UTF-8 bytes, RFC 3986 §2.1), and HTML character references
 * (`&#x2F;`, `&#47;`, `&amp;`). Anything else is kept as it is; `+` is kept
 * too, since it is as often itself as a form's space.
 */
export function decodeEscapes(original: string): Decoded {
  // Every escape is longer than what it stands for, so the decoded text is never longer than the original.
  const from = new Int32Array(original.length);
  const to = new Int32Array(original.length);
  const parts: string[] = [];
  let length = 0;
  /** Text kept as it is: each unit from its own place. */
  const keep = (start: number, end: number) => {
    parts.push(original.slice(start, end));
    for (let at = start; at < end; at++, length++) {
      from[length] = at;
      to[length] = at + 1;
    }
  };
  /** A decoded escape: each of its units (two for a surrogate pair) from the whole escape. */
  const decode = ({ text, end }: Escape, start: number) => {
    parts.push(text);
    for (let unit = 0; unit < text.length; unit++, length++) {
      from[length] = start;
      to[length] = end;
    }
  };
  let plain = 0;
  let i = 0;
  while (i < original.length) {
    const c = original[i];
    const escape = c === '\\' ? backslashEscape(original, i) : c === '%' ? percentEscape(original, i) : c === '&' ? reference(original, i) : undefined;
    if (escape) {
      keep(plain, i);
      decode(escape, i);
      i = plain = escape.end;
    } else {
      i += 1;
    }
  }
  keep(plain, original.length);
  return { text: parts.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}

interface Escape {
  text: string;
  end: number;
}

/** `\/`, `\"`, `\\`, `\uXXXX`, after one backslash or a run of them (each level of JSON doubles them). */
function backslashEscape(original: string, start: number): Escape | undefined {
  let next = start;
  while (original[next] === '\\') next += 1;
  const after = original[next];
  if (after === '/' || after === '"') return { text: after, end: next + 1 };
  const hex = original.slice(next + 1, next + 5);
  if (after === 'u' && hex.length === 4 && HEX.test(hex)) return { text: String.fromCharCode(parseInt(hex, 16)), end: next + 5 };
  // A run of backslashes before anything else: one backslash, escaped once or more.
  return next - start >= 2 ? { text: '\\', end: next } : undefined;
}

/** `%XX`, and the `%XX` that follow it where they make one UTF-8 character. */
function percentEscape(original: string, start: number): Escape | undefined {
  const byteAt = (at: number) => (original[at] === '%' && HEX.test(original.slice(at + 1, at + 3)) && original.length >= at + 3 ? parseInt(original.slice(at + 1, at + 3), 16) : undefined);
  const first = byteAt(start);
  if (first === undefined) return undefined;
  if (first < 0x80) return { text: String.fromCharCode(first), end: start + 3 };
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 0;
  const bytes = [first];
  for (let k = 1; k < length; k++) {
    const byte = byteAt(start + 3 * k);
    if (byte === undefined || byte < 0x80 || byte > 0xbf) return undefined;
    bytes.push(byte);
  }
  if (length === 0) return undefined;
  const text = Buffer.from(bytes).toString('utf8');
  return text.includes('\uFFFD') ? undefined : { text, end: start + 3 * length };
}

/** `&#x2F;`, `&#47;`, and the five named references XML and HTML both have. */
function reference(original: string, start: number): Escape | undefined {
  REFERENCE.lastIndex = start;
  const match = REFERENCE.exec(original);
  if (!match) return undefined;
  const [whole, hex, decimal, name] = match;
  const end = start + whole.length;
  if (name !== undefined) return { text: NAMED[name.toLowerCase()] as string, end };
  const codePoint = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
  return codePoint <= 0x10ffff ? { text: String.fromCodePoint(codePoint), end } : undefined;
}
