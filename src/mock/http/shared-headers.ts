/** Header records are never mutated once made (exchange.ts, respond.ts): a frozen one can be shared. */
export type HeaderRecord = Readonly<Record<string, string>>;

export const NO_HEADERS: HeaderRecord = Object.freeze({});
export const JSON_HEADERS: HeaderRecord = Object.freeze({ 'content-type': 'application/json' });

// By the first record, then the second: entries go when either record does (they are made per route, at start-up).
const merges = new WeakMap<HeaderRecord, WeakMap<HeaderRecord, HeaderRecord>>();

/**
 * `{ ...first, ...second }`. When both are frozen (the headers a route's
 * steps add: CORS, deprecation, the 401 challenge) the result is made once,
 * frozen, and shared by every answer that sends the same two: copying them
 * per request, then keeping each copy in the journal, was measurable in the
 * request's CPU profile. Node and @hono/node-server only read the record.
 */
export function mergeHeaders(first: HeaderRecord, second: HeaderRecord): HeaderRecord {
  if (!Object.isFrozen(first) || !Object.isFrozen(second)) return { ...first, ...second };
  let bySecond = merges.get(first);
  if (bySecond === undefined) merges.set(first, (bySecond = new WeakMap()));
  let merged = bySecond.get(second);
  if (merged === undefined) bySecond.set(second, (merged = Object.freeze({ ...first, ...second })));
  return merged;
}
