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
 * A request's path and query as the journal keeps it: the value of every
 * query parameter whose name looks like a credential replaced by
 * `REDACTED`, then cut to MAX_JOURNAL_PATH characters, so an entry holds at
 * most about 1 KiB whatever the client sends (node takes 16 KiB of headers),
 * and copied (see ownCopy), so it keeps nothing longer alive: the URL it is
 * cut from may hold a Host header of 16 KiB.
 */
export function journalPath(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  const kept = at === -1 ? pathAndQuery : `${pathAndQuery.slice(0, at + 1)}${redact(pathAndQuery.slice(at + 1))}`;
  return ownCopy(kept.length > MAX_JOURNAL_PATH ? `${kept.slice(0, MAX_JOURNAL_PATH)}…` : kept);
}

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
