import fc from 'fast-check';
import { UNRESERVED } from '../../shared/uri-normal-form.js';

/**
 * Spellings of a request's path and query that name the same resource
 * (RFC 3986), generated from the grammar's productions rather than listed:
 * at each place a production allows another spelling, a choice picks one
 * of its alternatives. A spelling is the list of choices, read in order
 * (the i-th place takes the i-th, modulo its number of alternatives; past
 * the list's end, 0): every 0 is the request as the harness writes it, so
 * a spelling shrinks toward it, and a new alternative of a production is
 * one more entry in its list below.
 */
export type UriSpelling = readonly number[];

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * An unreserved character: as it is; percent-encoded with upper-case hex
 * digits; with lower-case ones. §2.3: "URIs that differ in the replacement
 * of an unreserved character with its corresponding percent-encoded
 * US-ASCII octet are equivalent"; §6.2.2.1: the hex digits are
 * case-insensitive ("%3a" and "%3A" are the same).
 */
const CHARACTER: ReadonlyArray<(c: string) => string> = [(c) => c, (c) => `%${hex(c).toUpperCase()}`, (c) => `%${hex(c).toLowerCase()}`];

/**
 * Before a path segment: nothing; a "." segment; a segment and "..";
 * each with its dots percent-encoded, in either case of hex digits.
 * §5.2.4 removes them before the path is used (and §6.2.2.3: "should be
 * normalized"): `/v1/./pets` and `/v1/x/../pets` are `/v1/pets`; `.` is
 * unreserved, so `%2E` is a dot (§2.3), decoded before the segment is
 * removed (§6.2.2.2, then §6.2.2.3): `/v1/%2E/pets`, `/v1/x/%2e%2E/pets`.
 */
const SEGMENT: readonly string[] = ['', './', 'x/../', '%2E/', 'x/%2e%2E/'];

/**
 * Before the path's first segment (the base's, from the origin), also
 * "..": it climbs above the root, which §5.2.4 does not allow (step 2C
 * turns a leading `/..` into `/`): `/../v1/pets` is `/v1/pets`.
 */
const FIRST_SEGMENT: readonly string[] = [...SEGMENT, '../'];

/** How many alternatives the grammar offers at most at one place, for drawing choices. */
const MOST = Math.max(CHARACTER.length, FIRST_SEGMENT.length);

/** The most places a spelling chooses for: a path and a query of a few parameters. */
const PLACES = 64;

/** A spelling drawn, shrinking toward fewer choices and toward 0. The cases tried on every run are among what it draws, so fast-check can shrink them too. */
export const uriSpellingArbitrary = (): fc.Arbitrary<UriSpelling> => fc.array(fc.nat({ max: MOST - 1 }), { maxLength: PLACES });

/**
 * The spellings of the cases tried on every run: the k-th takes at place i
 * the alternative (i + k) modulo its count, so over as many cases as a
 * production has alternatives, each place gets each one.
 */
export const everyUriSpelling = (count: number): UriSpelling[] => Array.from({ length: count }, (_, k) => Array.from({ length: PLACES }, (_, i) => (i + k + 1) % MOST));

/** Reads a spelling's choices in order. */
function chooser(spelling: UriSpelling): (alternatives: number) => number {
  let at = 0;
  return (alternatives) => (spelling[at++] ?? 0) % alternatives;
}

/** Text already percent-encoded where it must be: each unreserved character spelled by the next choice, the rest as it is. */
function spellText(text: string, choose: (n: number) => number): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '%') {
      out += text.slice(i, i + 3);
      i += 2;
    } else out += UNRESERVED.test(c) ? (CHARACTER[choose(CHARACTER.length)] as (c: string) => string)(c) : c;
  }
  return out;
}

/**
 * Which of a spelling's places are spelled: all of them, or only the dot
 * segments, every other place read but left as it is, so the dot segments
 * are the same as in the whole spelling.
 */
export type SpelledPlaces = 'all' | 'dot-segments';

/**
 * A whole path from the origin, the base's segments included (`/v1/pets/30`),
 * in the spelling: each segment after its dot-segment choice (the first
 * segment's may climb above the root), its characters after theirs.
 */
export function spellPath(path: string, choose: (n: number) => number, places: SpelledPlaces = 'all'): string {
  const characters = places === 'all' ? choose : (n: number) => (choose(n), 0);
  return path
    .split('/')
    .map((segment, i) => {
      if (i === 0) return segment;
      const dots = i === 1 ? FIRST_SEGMENT : SEGMENT;
      return `${dots[choose(dots.length)] as string}${spellText(segment, characters)}`;
    })
    .join('/');
}

/** A whole path and its query parameters (each already percent-encoded where it must be) in a spelling: the path's places first, then the query's. */
export function spellUri(path: string, parameters: ReadonlyArray<readonly [string, string]>, spelling: UriSpelling, places: SpelledPlaces = 'all'): string {
  const choose = chooser(spelling);
  const characters = places === 'all' ? choose : (n: number) => (choose(n), 0);
  const spelledPath = spellPath(path, choose, places);
  const query = parameters.map(([name, value]) => `${spellText(name, characters)}=${spellText(value, characters)}`);
  return query.length ? `${spelledPath}?${query.join('&')}` : spelledPath;
}

/** Whether a path as sent holds a dot segment, literal or percent-encoded (`/./`, `/%2e%2E/`). */
export const holdsDotSegment = (path: string): boolean => /\/(\.|%2e){1,2}(\/|$)/i.test(path.replace(/[?#].*$/, ''));

/** Whether a spelling changes anything of this path and query. */
export const spellsOtherwise = (spelling: UriSpelling | undefined): boolean => (spelling ?? []).some((c) => c !== 0);
