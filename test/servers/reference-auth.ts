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
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== 'authorization') continue;
    count++;
    value = rawHeaders[i + 1];
  }
  if (count !== 1 || value === undefined) return false;
  const match = /^bearer +(.+)$/is.exec(value);
  return match !== null && match[1] === key;
}
