import type { Variation } from './variations.js';
import { extraQueryOf, querySpellingOf } from './variations.js';

/**
 * A path with its query written in a variation's form: the documented
 * parameters in another order or with every character percent-encoded
 * (RFC 3986 §2.3, §6.2.2.2: an unreserved character and its encoding are
 * the same URI), then an undocumented parameter when the variation adds one.
 */
export function variedPath(path: string, query: Record<string, string>, variation: Variation): string {
  const entries = Object.entries(query);
  const spelling = querySpellingOf(variation);
  const ordered = spelling === 'reversed' ? entries.reverse() : entries;
  const encode = spelling === 'percent-encoded' ? encodeEvery : (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
  const parts = ordered.map(([name, value]) => `${encode(name)}=${encode(value)}`);
  const extra = extraQueryOf(variation);
  if (extra !== null) parts.push(extra);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** Every character as %XX of its UTF-8 bytes, the unreserved ones included. */
const encodeEvery = (text: string): string => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
