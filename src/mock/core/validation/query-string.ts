/**
 * A request's query string read the way Hono's `c.req.queries()` reads it
 * (pairs split on `&`, the name up to the first `=`, `+` as a space, then
 * percent-decoding that keeps any `%XX` it cannot decode; empty names
 * skipped; anything from `#` on ignored), without building the record of
 * every parameter: that record was a tenth of listPets' CPU per request.
 */

/** The query string of an absolute URL (after `?`, before `#`), or '' without one. */
export function searchOf(url: string): string {
  // From 8, past `https://`, as Hono looks: the scheme's own characters hold no `?` or `#`.
  const hash = url.indexOf('#', 8);
  const end = hash === -1 ? url.length : hash;
  const question = url.indexOf('?', 8);
  return question === -1 || question >= end ? '' : url.slice(question + 1, end);
}

/** What a query gives one parameter: how many values, the first, and the last. */
export interface QueryValues {
  count: number;
  first: string | undefined;
  last: string | undefined;
}

/**
 * The values `name` has in `search`. A pair's name is compared where it
 * stands, with no string made, unless it could be encoded (`%` or `+`);
 * only the first value and, when there are more, the last are decoded.
 */
export function queryValues(search: string, name: string): QueryValues {
  const values: QueryValues = { count: 0, first: undefined, last: undefined };
  let last: [number, number] | undefined;
  let start = 0;
  while (start < search.length) {
    const amp = search.indexOf('&', start);
    const end = amp === -1 ? search.length : amp;
    const equals = search.indexOf('=', start);
    const nameEnd = equals === -1 || equals > end ? end : equals;
    if (isName(search, start, nameEnd, name)) {
      values.count += 1;
      values.first ??= nameEnd === end ? '' : decodePart(search.slice(nameEnd + 1, end));
      last = [nameEnd, end];
    }
    start = end + 1;
  }
  if (values.count === 1) values.last = values.first;
  else if (last) values.last = last[0] === last[1] ? '' : decodePart(search.slice(last[0] + 1, last[1]));
  return values;
}

/** Whether `search` from `start` to `end` is `name`, once decoded. */
function isName(search: string, start: number, end: number, name: string): boolean {
  if (end - start === name.length && search.startsWith(name, start)) return true;
  return (within(search, '%', start, end) || within(search, '+', start, end)) && decodePart(search.slice(start, end)) === name;
}

const within = (text: string, char: string, start: number, end: number): boolean => {
  const at = text.indexOf(char, start);
  return at !== -1 && at < end;
};

/** `+` as a space, then percent-decoding; a `%XX` run that is not UTF-8 stays as sent (Hono's tryDecode). */
export function decodePart(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
