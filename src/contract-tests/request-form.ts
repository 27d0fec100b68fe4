import type { HeaderForm } from './types.js';

type Fields = Record<string, string | string[]>;

/**
 * The fields Node's fetch (undici, Node 20 to 24) adds to a request that
 * does not give them. The harness sends every request with node:http, which
 * adds none, so it adds these itself: its requests are those of a client
 * written with fetch, as a frontend's are, on every Node version alike.
 * A body without a Content-Type goes as fetch sends a string, text/plain.
 */
const FETCH_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];
const FETCH_BODY_TYPE = 'text/plain;charset=UTF-8';

/** `fields` with those fetch would add, where a field of that name (in any case) is not given. */
export function withFetchFields(fields: Fields, hasBody: boolean): Fields {
  const given = new Set(Object.keys(fields).map((name) => name.toLowerCase()));
  const added = [...(hasBody ? [['content-type', FETCH_BODY_TYPE] as const] : []), ...FETCH_FIELDS].filter(([name]) => !given.has(name));
  return added.length === 0 ? fields : { ...fields, ...Object.fromEntries(added) };
}

/**
 * The negotiation fields of a request written another way, in the order
 * sent. Unless its form changes them, they are fetch's (FETCH_FIELDS; the
 * first form of each dimension, generate/variations.ts), so it differs from
 * an unvaried one only where the form says.
 */
const NEGOTIATION_ORDER = ['accept', 'accept-language', 'accept-encoding', 'user-agent'] as const;

/** Fields curl sends of its own when not given: a curl line removes them (`-H 'Accept:'`) when the request left them out. */
const CURL_ADDS = new Set(['accept', 'user-agent']);

/** The negotiation fields whose values are lists, whose commas and semicolons may have whitespace around them. */
const LISTS = new Set(['accept', 'accept-language', 'accept-encoding']);

/**
 * The request's fields written in `form`: in the order sent, names in the
 * form's case, and the fields curl would add that were deliberately left out.
 */
export function writeFields(fields: Fields, form: HeaderForm, hasBody: boolean): { headers: Fields; without: string[] } {
  const { accept: _, authorization, ...rest } = fields;
  const entries: Array<[string, string | string[]]> = [];
  const without: string[] = [];
  for (const name of NEGOTIATION_ORDER) {
    const value = form.negotiation[name];
    if (value !== null) entries.push([name, typeof value === 'string' ? value : [...value]]);
    else if (CURL_ADDS.has(name)) without.push(name);
  }
  // The body's media type in the form's spelling, where the request has one of its own.
  entries.push(...Object.entries(rest).map(([name, value]): [string, string | string[]] => (hasBody && form.contentType !== undefined && name.toLowerCase() === 'content-type' ? [name, form.contentType] : [name, value])));
  if (hasBody && form.chunked) entries.push(['transfer-encoding', 'chunked']);
  if (hasBody && form.expect !== undefined) entries.push(['expect', form.expect]);
  if (authorization !== undefined) entries.push(['authorization', Array.isArray(authorization) ? authorization : respellScheme(authorization, form)]);
  entries.push(...Object.entries(form.extra).map(([name, value]): [string, string | string[]] => [name, typeof value === 'string' ? value : [...value]]));
  const spaced = form.whitespace ? entries.map(([name, value]): [string, string | string[]] => [name, Array.isArray(value) ? value : padded(name, value)]) : entries;
  const ordered = form.order === 'reversed' ? spaced.reverse() : form.order === 'authorization first' ? [...spaced.filter(([n]) => n === 'authorization'), ...spaced.filter(([n]) => n !== 'authorization')] : spaced;
  return { headers: Object.fromEntries(ordered.map(([name, value]) => [casedName(name, form.names), value])), without: without.map((name) => casedName(name, form.names)) };
}

/** `Bearer <token>` with the form's scheme spelling and spaces (RFC 9110 §11.1, §11.4); any other value as it is. */
function respellScheme(value: string, form: HeaderForm): string {
  const match = /^Bearer (.*)$/s.exec(value);
  return match ? `${form.scheme}${' '.repeat(form.schemeSpaces)}${match[1]}` : value;
}

/**
 * Optional whitespace (RFC 9110 §5.6.3: spaces and tabs) before and after
 * the value, and around a list's commas and a parameter's semicolon. The
 * tab goes before the value only: Node's HTTP parser refuses a tab after
 * `chunked` in Transfer-Encoding, so every server on Node would fail for a
 * reason its code cannot change.
 */
function padded(name: string, value: string): string {
  const inner = LISTS.has(name) ? value.replace(/\s*,\s*/g, ' ,  ').replace(/\s*;\s*/g, ' ; ') : value;
  return `\t ${inner}  `;
}

function casedName(name: string, names: HeaderForm['names']): string {
  if (names === 'upper') return name.toUpperCase();
  if (names === 'title') return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
  return name;
}
