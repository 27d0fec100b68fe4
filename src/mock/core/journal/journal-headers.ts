import { ownCopy } from '../own-copy.js';
import { SECRET_NAME } from './journal-path.js';

/** A journal entry keeps at most this many of a request's headers, the first ones sent. */
export const MAX_JOURNAL_HEADERS = 32;
/** Each header name and value is cut at this many characters, with `…`. */
export const MAX_JOURNAL_HEADER_CHARS = 256;
/** And all of them together (names and values) at this many: node takes 16 KiB of headers, an entry need not. */
export const MAX_JOURNAL_HEADERS_CHARS = 2048;

/** The request's headers as a journal entry keeps them; `truncated` when some were left out or cut. */
export interface JournalHeaders {
  headers: Record<string, string>;
  truncated: true | undefined;
}

/**
 * A request's headers from node's `rawHeaders` ([name, value, …], as
 * sent): names lower-cased, a repeated header's values joined with `, `
 * (RFC 9110 §5.3), bounded as above, and every credential redacted. The
 * journal can be read by anyone who can reach the admin API (with
 * `--admin-key`, by its holder), and API keys sit in a frontend's bundle
 * at best; cookies sent to `localhost` belong to every app on any of its
 * ports. So `Authorization` keeps its scheme only (`Bearer ***`) when it
 * is a known one, and `Cookie` and any header whose name looks like a credential (as query
 * parameters are judged, journal-path.ts) show `***`. `X-Mock-Session`
 * names a session, no secret (the entry's `session` shows it anyway).
 */
export function journalHeaders(raw: readonly string[]): JournalHeaders {
  const headers: Record<string, string> = {};
  let truncated: true | undefined;
  let used = 0;
  const count = Math.min(raw.length >> 1, MAX_JOURNAL_HEADERS);
  if (count < raw.length >> 1) truncated = true;
  for (let i = 0; i < count; i++) {
    const name = clipped(raw[2 * i] as string).toLowerCase();
    const value = redacted(name, raw[2 * i + 1] as string);
    used += name.length + value.length;
    if (used > MAX_JOURNAL_HEADERS_CHARS) return { headers, truncated: true };
    // Only a cut name or value is longer than the limit (by its `…`).
    if (name.length > MAX_JOURNAL_HEADER_CHARS || value.length > MAX_JOURNAL_HEADER_CHARS) truncated = true;
    put(headers, name, value);
  }
  return { headers, truncated };
}

/** Cut at MAX_JOURNAL_HEADER_CHARS with `…`, as its own copy (ownCopy: a slice would keep the whole header alive). */
const clipped = (text: string): string => (text.length > MAX_JOURNAL_HEADER_CHARS ? ownCopy(`${text.slice(0, MAX_JOURNAL_HEADER_CHARS)}…`) : text);

/**
 * The schemes an Authorization header's first word may be shown as: IANA's
 * HTTP Authentication Scheme Registry (RFC 9110 §16.4), and the common
 * unregistered NTLM and AWS4-HMAC-SHA256, matched in any case (§11.1).
 * Any other first word may be the credential itself (`Authorization: key
 * extra`), so the whole value is then `***`.
 */
const SCHEMES: ReadonlyMap<string, string> = new Map(
  ['Basic', 'Bearer', 'Concealed', 'Digest', 'DPoP', 'GNAP', 'HOBA', 'Mutual', 'Negotiate', 'OAuth', 'PrivateToken', 'SCRAM-SHA-1', 'SCRAM-SHA-256', 'vapid', 'NTLM', 'AWS4-HMAC-SHA256'].map((scheme) => [
    scheme.toLowerCase(),
    // Written as registered, one string for all entries: a slice of the header would keep all of it alive (own-copy.ts).
    `${scheme} ***`,
  ]),
);

function redacted(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') {
    const space = value.indexOf(' ');
    return (space === -1 ? undefined : SCHEMES.get(value.slice(0, space).toLowerCase())) ?? '***';
  }
  if (name !== 'x-mock-session' && SECRET_NAME.test(name)) return '***';
  return clipped(value);
}

/** Sets a header, joining a repeat; a header named `__proto__` or `constructor` is a header like any other. */
function put(headers: Record<string, string>, name: string, value: string): void {
  const previous = Object.hasOwn(headers, name) ? headers[name] : undefined;
  const joined = previous === undefined ? value : clipped(`${previous}, ${value}`);
  if (name === '__proto__') Object.defineProperty(headers, name, { value: joined, enumerable: true, writable: true, configurable: true });
  else headers[name] = joined;
}
