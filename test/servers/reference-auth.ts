/**
 * Whether a request's raw headers carry exactly one `Authorization` header
 * whose value is `Bearer <key>`: the scheme in any letter case, one or more
 * spaces, then the key exactly (case-sensitive, nothing before or after it).
 *
 * The raw headers ([name, value, name, value, …]) are read rather than
 * node's `req.headers`, which keeps only the first `authorization` and drops
 * the others: two Authorization headers are ambiguous (RFC 9110 §11.6.2
 * defines one credentials value, not a list) and are refused.
 */
export function isAuthorized(rawHeaders: readonly string[], key: string): boolean {
  const value = onlyHeader(rawHeaders, 'authorization');
  if (value === undefined) return false;
  const match = /^bearer +(.+)$/is.exec(value);
  return match !== null && match[1] === key;
}

/** The value of a header sent exactly once (name in any case), else undefined: none, or several. */
export function onlyHeader(rawHeaders: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== name) continue;
    count++;
    value = rawHeaders[i + 1];
  }
  return count === 1 ? value : undefined;
}
