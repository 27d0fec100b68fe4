// An entity tag: optional W/, then a quoted opaque tag (RFC 9110 §8.8.3).
const TAGS = /(?:W\/)?"([^"]*)"/g;

/**
 * Whether `If-None-Match` fails for a file with entity tag `etag`, so a
 * GET or HEAD is answered 304 Not Modified (RFC 9110 §13.1.2, §15.4.5):
 * the field is `*`, or one of the tags it lists matches by the weak
 * comparison (§8.8.3.2: `W/"x"` matches `"x"`). What lies between the
 * tags is not checked: only a client that had the file can name its tag.
 * Linear in the field's length (at most node's 16 KiB of headers).
 */
export function noneMatchFails(field: string | undefined, etag: string): boolean {
  if (field === undefined) return false;
  if (field.trim() === '*') return true;
  const opaque = etag.slice(1, -1);
  for (const tag of field.matchAll(TAGS)) if (tag[1] === opaque) return true;
  return false;
}
