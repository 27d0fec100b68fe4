import type { Variation } from './variations.js';
import { emptyLastSegmentOf, extraQueryOf, pathFormOf, querySpellingOf } from './variations.js';
import { spellUri } from './uri-spelling.js';

type PathForm = NonNullable<ReturnType<typeof pathFormOf>>;

/** `/` replaced at the path's last slash (`/v1/pets/30` → `/v1/pets%2F30`). */
const atLastSlash = (path: string, by: string) => `${path.slice(0, path.lastIndexOf('/'))}${by}${path.slice(path.lastIndexOf('/') + 1)}`;

/** The path forms RFC 3986 does not call the same (variations.ts `pathForm`), on the plain path, before its spelling. */
const ON_PATH: Partial<Record<PathForm, (path: string) => string>> = {
  '// before the first segment': (path) => `/${path}`,
  '// before the last segment': (path) => atLastSlash(path, '//'),
  'in upper case': (path) => path.toUpperCase(),
  ';x=1 after the last segment': (path) => `${path};x=1`,
  '%2F for the last /': (path) => atLastSlash(path, '%2F'),
  '\\ for the last /': (path) => atLastSlash(path, '\\'),
};

/** The others, on the target as spelled: a fragment, an empty query piece. */
const ON_TARGET: Partial<Record<PathForm, (target: string) => string>> = {
  'a fragment #x': (target) => `${target}#x`,
  'an empty query piece last (? or &)': (target) => `${target}${target.includes('?') ? '&' : '?'}`,
  'an empty query piece first (?&)': (target) => (target.includes('?') ? target.replace('?', '?&') : `${target}?&`),
};

/**
 * The whole target path from the origin (`basePath` and the operation's
 * `path`) with its query written in a variation's form: the documented
 * parameters in another order, an empty last segment or a path form when
 * the variation asks for one, path (base included) and query spelled by the
 * URI grammar (uri-spelling.ts), then an undocumented parameter when the
 * variation adds one, and last a fragment or an empty query piece.
 */
export function variedPath(basePath: string, path: string, query: Record<string, string>, variation: Variation): string {
  const entries = Object.entries(query);
  const ordered = querySpellingOf(variation) === 'reversed' ? entries.reverse() : entries;
  const encode = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
  const form = pathFormOf(variation);
  const whole = `${basePath}${path}${emptyLastSegmentOf(variation) ? '/' : ''}`;
  const formed = form === null ? whole : (ON_PATH[form]?.(whole) ?? whole);
  const spelled = spellUri(formed, ordered.map(([name, value]) => [encode(name), encode(value)] as const), variation.uri ?? [], variation.uriPlaces);
  const extra = extraQueryOf(variation);
  const target = extra === null ? spelled : `${spelled}${spelled.includes('?') ? '&' : '?'}${extra}`;
  return form === null ? target : (ON_TARGET[form]?.(target) ?? target);
}
