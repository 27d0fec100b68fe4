import { isExactInteger } from '../../shared/exact-json/int64.js';
import type { RecordedExchange } from '../../verdict/exchange.js';

/**
 * The parts of an answer two correct servers must agree on once they made
 * the same choices: the status, the Error `code`, the headers the interface
 * or the mock's documented choices involve, and the body's shape. Never the
 * values that legitimately differ: ids, names, which animals exist, dates,
 * header order, member order.
 */
export type Facets = Record<string, string>;

/** Headers compared by presence only: their values are dates or delays that differ run to run (RFC 9745, RFC 8594, RFC 9110 §10.2.3). */
const PRESENCE_ONLY = ['deprecation', 'sunset', 'retry-after'];

export function facetsOf(exchange: RecordedExchange, base: string): Facets {
  const response = exchange.response;
  if (!response) return { status: 'no answer' };
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const code = (response.json as { code?: unknown } | undefined)?.code;
  const facets: Facets = {
    status: String(response.status),
    'Content-Type': headers['content-type'] === undefined ? 'absent' : (headers['content-type'].split(';')[0] ?? '').trim().toLowerCase(),
    Location: locationShape(headers.location, response.json, base),
    'WWW-Authenticate': headers['www-authenticate'] === undefined ? 'absent' : challengeShape(headers['www-authenticate']),
    Link: headers.link === undefined ? 'absent' : linkRelations(headers.link),
    body: response.unread ? 'not read' : response.json === undefined ? (response.body === '' ? 'empty' : 'not JSON') : shapeOf(response.json),
  };
  if (response.status >= 400) facets.code = typeof code === 'string' ? code : 'none';
  for (const name of PRESENCE_ONLY) facets[name.replace(/(^|-)\w/g, (c) => c.toUpperCase())] = headers[name] === undefined ? 'absent' : 'present';
  return facets;
}

/** `Location` with the created animal's own id and the base URL written as placeholders, so twins' Locations compare equal. */
function locationShape(location: string | undefined, json: unknown, base: string): string {
  if (location === undefined) return 'absent';
  const id = (json as { id?: unknown } | undefined)?.id;
  let shape = location.startsWith(base) ? `{base}${location.slice(base.length)}` : location;
  if (isExactInteger(id)) shape = shape.replace(new RegExp(`(^|/)${String(id)}(?=$|[/?#])`), '$1{id}');
  return shape;
}

/** A challenge's scheme and parameter names (RFC 9110 §11.6.1): the realm's text is the server's own. */
function challengeShape(value: string): string {
  const scheme = (/^\s*([^\s,]+)/.exec(value)?.[1] ?? '').toLowerCase();
  const params = [...value.matchAll(/([A-Za-z_-]+)\s*=/g)].map((m) => (m[1] ?? '').toLowerCase()).sort();
  return [scheme, ...params].join(' ');
}

/** The relation types a `Link` names (RFC 8288): the targets hold ids. */
function linkRelations(value: string): string {
  return [...new Set([...value.matchAll(/rel\s*=\s*"?([^";,]+)"?/gi)].map((m) => (m[1] ?? '').toLowerCase()))].sort().join(' ') || 'no rel';
}

/**
 * A JSON value's structure: members by name (sorted: member order is not a
 * shape), and for an array the union of its items' members, since which
 * animals a page holds, and so which of them carry an optional member, is
 * the catalogue's, not the server's choice. An empty array fits any.
 */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (isExactInteger(value) || typeof value === 'number') return 'number';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const objects = value.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item));
    const members = new Map<string, Set<string>>();
    for (const item of objects) for (const [name, member] of Object.entries(item as object)) members.set(name, (members.get(name) ?? new Set()).add(shapeOf(member)));
    const others = [...new Set(value.filter((item) => !objects.includes(item)).map(shapeOf))];
    const merged = objects.length > 0 ? [`{${[...members].sort(([a], [b]) => a.localeCompare(b)).map(([name, shapes]) => `${name}: ${[...shapes].sort().join('|')}`).join(', ')}}`] : [];
    return `[${[...merged, ...others].sort().join(' | ')}]`;
  }
  if (typeof value === 'object') {
    return `{${Object.entries(value as object).sort(([a], [b]) => a.localeCompare(b)).map(([name, member]) => `${name}: ${shapeOf(member)}`).join(', ')}}`;
  }
  return typeof value;
}
