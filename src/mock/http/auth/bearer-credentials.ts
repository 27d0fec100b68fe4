import { constantTimeEqual, sha256 } from '../../../shared/digest.js';
import type { Context } from 'hono';
import { errorBody, profiledError } from '../../core/errors.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import type { Exchange } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { countRawHeader } from '../raw-headers.js';
import { sendError } from '../respond.js';

/**
 * Bearer credentials (RFC 6750): reading and checking `Authorization`, and
 * the 401s that refuse it. The key-check step (steps/bearer-key.ts), the
 * session step and the admin guard build on these.
 */

// RFC 9110 §11.1: the auth-scheme is case-insensitive; §11.4: credentials are
// the scheme, one or more spaces, then the token68.
const CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Whether the request carries more than one Authorization header. RFC 9110
 * §11.6.2 makes Authorization a single credentials value, not a list, so two
 * are ambiguous and get 401 whichever comes first. Node's `req.headers` keeps
 * only the first `authorization` (and Hono reads it from there), so this
 * counts the names in `rawHeaders` instead (raw-headers.ts). Without a node request (`app.fetch` in a test)
 * fetch's Headers has already joined repeats into one value with `, `, which
 * the credentials pattern refuses.
 */
export function repeatsAuthorization(c: Context): boolean {
  const raw = nodeBindings(c)?.incoming.rawHeaders;
  return raw !== undefined && countRawHeader(raw, 'authorization') > 1;
}

/** 401 with the Error body and `message`; RFC 9110 §11.6.1: a 401 carries a WWW-Authenticate challenge, here for `realm`. */
export function unauthorized(message: string, realm: string): (x: Exchange) => Response {
  const body = errorBody('unauthorized', message);
  // Frozen: merged with the route's CORS headers once (shared-headers.ts).
  const challenge = Object.freeze({ 'www-authenticate': `Bearer realm="${realm}"` });
  return (x) => sendError(x, body, challenge);
}

const API_REFUSAL = 'Missing or invalid API key: send Authorization: Bearer <API_KEY>.';

/** The API's 401, with the mock's own code. */
export const sendUnauthorized = unauthorized(API_REFUSAL, 'animal-store');

/**
 * The API's 401 with the active profile's code and challenge: one code for
 * a request without `Authorization`, one for a header that carries no
 * accepted key (another key, another scheme, two headers). Read at each
 * request, as the profile can be reloaded.
 */
export function profiledUnauthorized(profile: ActiveProfile): (x: Exchange) => Response {
  // Frozen and kept while the challenge stays the same: merged with the route's CORS headers once (shared-headers.ts).
  let challenge = { value: '', headers: Object.freeze({}) as Readonly<Record<string, string>> };
  return (x) => {
    const value = profile.choices.challenge;
    if (challenge.value !== value) challenge = { value, headers: Object.freeze({ 'www-authenticate': value }) };
    const header = x.c.req.header('authorization');
    const missing = header === undefined || (header.trim() === '' && profile.choices['empty-authorization'] === 'missing-key');
    return sendError(x, profiledError(profile.choices[missing ? 'missing-key' : 'wrong-key'], API_REFUSAL), challenge.headers);
  };
}

/** Whether an `Authorization` header value carries an accepted key, in constant time (see bearerKey). */
export function keyChecker(keys: readonly string[]): (authorization: string | undefined) => boolean {
  if (keys.length === 0) throw new Error('bearerKey needs at least one accepted key');
  const accepted = keys.map(digest);
  // Header values already found to carry an accepted key, so a client's
  // every request does not hash again. Only accepted values go in, so a
  // wrong key can neither fill it nor be told apart by it: a Set look-up
  // hashes the whole value and compares contents only with an entry of the
  // same length and hash, which reveals no more than the 200 or 401 does.
  const known = new Set<string>();
  return (authorization) => {
    if (authorization === undefined) return false;
    if (known.has(authorization)) return true;
    const match = CREDENTIALS.exec(authorization);
    const found = match !== null && isAccepted(digest(match[1] as string), accepted);
    // Bounded: spaces between scheme and key make many spellings of one key.
    if (found && known.size < MAX_KNOWN_VALUES) known.add(authorization);
    return found;
  };
}

const MAX_KNOWN_VALUES = 64;

// Hashed first, so every comparison is of 32 bytes whatever the keys' lengths.
const digest = (key: string): Uint8Array => sha256(key);

function isAccepted(presented: Uint8Array, accepted: readonly Uint8Array[]): boolean {
  let found = false;
  // No early exit: every accepted key is compared, whichever matches.
  for (const key of accepted) found = constantTimeEqual(presented, key) || found;
  return found;
}
