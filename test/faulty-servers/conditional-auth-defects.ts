import { FAULTY_SERVER_KEY, type Defect, type ServerFetch } from './defect.js';
import { beforeMock, rewriteRequest, withKey } from './http.js';

/**
 * Credentials checks that are right for the key, a wrong key, no key and
 * Basic (what the fixed auth rules send) but let through a near-miss of
 * the key: each defect is one way a hand-written check goes wrong.
 */

const AUTH = 'Authentication: the key is sent as Authorization: Bearer <API_KEY>; when the key is missing or invalid, the service answers 401 with an Error body.';
const NEAR_MISS_RULES = ['auth-near-misses-list-pets', 'auth-near-misses-create-pet', 'auth-near-misses-get-pet'];

/** Lets a request through with the accepted key when its Authorization header matches `test`. */
const acceptWhen = (test: (authorization: string | null, request: Request) => boolean) =>
  beforeMock((request) => (test(request.headers.get('authorization'), request) ? withKey(request) : request));

/** The token of a `Bearer <token>` header (one token, any letter case of the scheme). */
const tokenOf = (authorization: string | null): string | undefined => /^bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];

/**
 * Authorization headers read as a comma-separated list, the first entry
 * used: node's fetch Headers joins repeated headers with ", ", so two
 * headers arrive as one such list. The mock also counts the raw headers,
 * so it is shown a request (and raw headers) with the first entry alone.
 */
const firstAuthorizationWins = (fetch: ServerFetch): ServerFetch => async (request, env) => {
  const entries = (request.headers.get('authorization') ?? '').split(/ *, */);
  if (entries.length < 2) return fetch(request, env);
  const headers = new Headers(request.headers);
  headers.set('authorization', entries[0] as string);
  const raw = env.incoming.rawHeaders;
  const kept: string[] = [];
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const isAuthorization = (raw[i] as string).toLowerCase() === 'authorization';
    if (isAuthorization && seen) continue;
    seen ||= isAuthorization;
    kept.push(raw[i] as string, isAuthorization ? (entries[0] as string) : (raw[i + 1] as string));
  }
  // The node request itself stays underneath (its socket, its streams); only rawHeaders is shadowed.
  const incoming = Object.create(env.incoming, { rawHeaders: { value: kept } }) as typeof env.incoming;
  return fetch(await rewriteRequest(request, { headers }), { ...env, incoming });
};

export const conditionalAuthDefects: Defect[] = [
  {
    name: 'a token that is the beginning of the key accepted (prefix compare)',
    breaks: AUTH,
    // `key.startsWith(token)`: the check compares only as much as the client sent.
    wrap: acceptWhen((authorization) => {
      const token = tokenOf(authorization);
      return token !== undefined && FAULTY_SERVER_KEY.startsWith(token);
    }),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'a token that starts with the key accepted (trailing characters ignored)',
    breaks: AUTH,
    // `token.startsWith(key)`: the check compares only the key's length.
    wrap: acceptWhen((authorization) => tokenOf(authorization)?.startsWith(FAULTY_SERVER_KEY) === true),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key compared case-insensitively',
    breaks: AUTH,
    wrap: acceptWhen((authorization) => tokenOf(authorization)?.toLowerCase() === FAULTY_SERVER_KEY.toLowerCase()),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'an empty bearer token ("Bearer" alone) accepted',
    breaks: AUTH,
    // An empty token taken as "nothing to check"; no header at all still gets 401.
    wrap: acceptWhen((authorization) => /^bearer *$/i.test(authorization ?? 'no header')),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key without a scheme accepted',
    breaks: AUTH,
    wrap: acceptWhen((authorization) => authorization?.trim() === FAULTY_SERVER_KEY),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key under the Token scheme accepted',
    breaks: AUTH,
    // Basic and other schemes are still refused: only the scheme DRF-style servers use.
    wrap: acceptWhen((authorization) => new RegExp(`^token +${FAULTY_SERVER_KEY} *$`, 'i').test(authorization ?? '')),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'two Authorization headers: the first one is used',
    breaks: `${AUTH} (RFC 9110 §11.6.2: Authorization is one credentials value, not a list.)`,
    wrap: firstAuthorizationWins,
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key in an access_token query parameter accepted',
    breaks: AUTH,
    // RFC 6750 §2.3's URI query form, which the interface does not offer.
    wrap: acceptWhen((authorization, request) => authorization === null && new URL(request.url).searchParams.get('access_token') === FAULTY_SERVER_KEY),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key in an api_key cookie accepted',
    breaks: AUTH,
    // An OpenAPI apiKey scheme `in: cookie` kept beside the bearer one: a browser sends the cookie on any page's behalf (CSRF).
    wrap: acceptWhen((authorization, request) => authorization === null && (request.headers.get('cookie') ?? '').split(';').some((pair) => pair.trim() === `api_key=${FAULTY_SERVER_KEY}`)),
    caughtBy: NEAR_MISS_RULES,
  },
  {
    name: 'the key in an X-API-Key field accepted',
    breaks: AUTH,
    // An apiKey scheme `in: header`, as generated clients of one write it.
    wrap: acceptWhen((authorization, request) => authorization === null && request.headers.get('x-api-key') === FAULTY_SERVER_KEY),
    caughtBy: NEAR_MISS_RULES,
  },
];
