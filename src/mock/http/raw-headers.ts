/**
 * How many times a header appears in node's `rawHeaders` ([name, value,
 * name, value, …]): node keeps only the first of some repeated headers in
 * `req.headers` (Host, Authorization) and joins others, so a repeat is
 * counted here. One pass, no allocation: names are compared code by code
 * rather than lower-cased.
 *
 * `name` must be lower-case letters: `| 0x20` folds A–Z onto a–z, and only
 * a letter folds onto a letter, so this matches exactly the
 * case-insensitive name (RFC 9110 §5.1).
 */
export function countRawHeader(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (isName(rawHeaders[i] as string, name)) count += 1;
  return count;
}

function isName(candidate: string, name: string): boolean {
  if (candidate.length !== name.length) return false;
  for (let i = 0; i < name.length; i++) if ((candidate.charCodeAt(i) | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}
