import { ownCopy } from '../own-copy.js';

/** The longest path, query included, a journal entry keeps (characters); longer ones are cut, with `…`. */
export const MAX_JOURNAL_PATH = 1024;

/**
 * Names of query parameters and headers that commonly carry credentials:
 * their values never reach the journal, which anyone who can reach the
 * admin API can read. Matched anywhere in the name, in any case (`api_key`,
 * `X-CSRFToken`, `id_token`): a useful value hidden costs less than a
 * secret shown. `pass` covers password and passphrase, `sig` signature,
 * `auth` OAuth and authorization; `code` and `assertion`/`saml` are the
 * OAuth and SAML grants, `jwt` a bearer token under another name, `otp`
 * and `ticket` one-time credentials. The contract's own names (limit,
 * status, petId) match none.
 */
export const SECRET_NAME = /token|key|secret|pass|pwd|auth|sig|session|credential|jwt|code|csrf|xsrf|assertion|saml|otp|ticket|cookie/i;

/**
 * A request's path and query as the journal keeps it, from its URL (from
 * `from`, the path's first `/`): the value of every query parameter whose
 * name looks like a credential replaced by `REDACTED`, then cut to
 * MAX_JOURNAL_PATH characters, so an entry holds at most about 1 KiB
 * whatever the client sends (node takes 16 KiB of headers). It is copied
 * (see ownCopy) only when it would otherwise keep a longer string alive:
 * the URL it is sliced from may hold a Host header of 16 KiB. A URL at most
 * SHARED_SLACK characters longer is kept as the path's parent instead, as
 * most are: copying every path was measurable per request.
 */
export function journalPath(url: string, from = 0): string {
  const at = url.indexOf('?', from);
  const query = at === -1 ? '' : url.slice(at + 1);
  const redacted = redact(query);
  let kept = redacted === query ? url.slice(from) : `${url.slice(from, at + 1)}${redacted}`;
  if (kept.length > MAX_JOURNAL_PATH) kept = `${kept.slice(0, MAX_JOURNAL_PATH)}…`;
  return url.length - kept.length > SHARED_SLACK ? ownCopy(kept) : kept;
}

/** How much longer than the path its URL may be for the path not to be copied (a scheme and a usual Host). */
const SHARED_SLACK = 80;

function redact(query: string): string {
  if (!SECRET_NAME.test(safeDecode(query))) return query;
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && SECRET_NAME.test(safeDecode(name)) ? `${name}=REDACTED` : pair;
    })
    .join('&');
}

function safeDecode(text: string): string {
  // Most queries have nothing encoded: no decode on the request path for them.
  if (!/[%+]/.test(text)) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
