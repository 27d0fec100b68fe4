import type { Variation } from './variations.js';
import { emptyLastSegmentOf, extraQueryOf, querySpellingOf } from './variations.js';
import { spellUri } from './uri-spelling.js';

/**
 * A path with its query written in a variation's form: the documented
 * parameters in another order, an empty last segment when the variation
 * asks for one, path and query spelled by the URI grammar (uri-spelling.ts),
 * then an undocumented parameter when the variation adds one.
 */
export function variedPath(path: string, query: Record<string, string>, variation: Variation): string {
  const entries = Object.entries(query);
  const ordered = querySpellingOf(variation) === 'reversed' ? entries.reverse() : entries;
  const encode = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
  const spelled = spellUri(emptyLastSegmentOf(variation) ? `${path}/` : path, ordered.map(([name, value]) => [encode(name), encode(value)] as const), variation.uri ?? []);
  const extra = extraQueryOf(variation);
  return extra === null ? spelled : `${spelled}${spelled.includes('?') ? '&' : '?'}${extra}`;
}
