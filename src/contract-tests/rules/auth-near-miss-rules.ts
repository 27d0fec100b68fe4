import { REDACTED_KEY } from '../http-client.js';
import type { ApiRequest, NearMiss, Rule } from '../types.js';
import { NOT_SENT, type OperationId } from '../../verdict/exchange.js';
import { JSON_BODY } from './expect.js';
import { finding, sweep } from './generated.js';
import { cite, STATEMENTS } from './statements.js';

const changeAt = (key: string, index: number) => key.slice(0, index) + (key[index] === 'x' ? 'y' : 'x') + key.slice(index + 1);
const swapCase = (key: string) => [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const bearer = (token: string) => `Bearer ${token}`;
const K = REDACTED_KEY;
const WRONG = 'contract-test-wrong-key';

/**
 * Where services of an apiKey scheme (OpenAPI `in: cookie` or `in: header`)
 * take a key: cookies a browser sends on any site's behalf (so a text/plain
 * POST from another page would create an animal: CSRF), and the fields
 * generated clients write. The interface says the Authorization header.
 */
const COOKIE_NAMES = ['api_key', 'access_token', 'token'] as const;
const KEY_FIELDS = ['X-API-Key', 'Api-Key'] as const;

/**
 * Credentials that are almost the key, as made by the bugs they catch:
 * prefix or case-insensitive comparisons, an empty or missing token taken
 * as "no check", the scheme not read, the first of two headers used, a key
 * taken from the query (RFC 6750 §2.3 allows `access_token` there only
 * where a service says so; the interface says the header), a cookie or
 * another field. Each must get 401 as surely as a wrong key does. `shown`
 * is what reports print.
 */
export const NEAR_MISSES: readonly NearMiss[] = [
  { label: 'the key with one character appended', make: (key) => ({ authorization: bearer(`${key}x`) }), shown: { authorization: bearer(`${K}x`) } },
  { label: 'the key with a character put before it', make: (key) => ({ authorization: bearer(`x${key}`) }), shown: { authorization: bearer(`x${K}`) } },
  { label: 'the key with its last character removed', make: (key) => (key.length > 1 ? { authorization: bearer(key.slice(0, -1)) } : undefined), shown: { authorization: bearer(`${K} less its last character`) } },
  { label: 'the key with its first character removed', make: (key) => (key.length > 1 ? { authorization: bearer(key.slice(1)) } : undefined), shown: { authorization: bearer(`${K} less its first character`) } },
  { label: 'the key with its last character changed', make: (key) => ({ authorization: bearer(changeAt(key, key.length - 1)) }), shown: { authorization: bearer(`${K} with its last character changed`) } },
  { label: 'the key with its first character changed', make: (key) => ({ authorization: bearer(changeAt(key, 0)) }), shown: { authorization: bearer(`${K} with its first character changed`) } },
  { label: 'the first half of the key', make: (key) => (key.length > 3 ? { authorization: bearer(key.slice(0, Math.ceil(key.length / 2))) } : undefined), shown: { authorization: bearer(`the first half of ${K}`) } },
  { label: 'the key in upper case', make: (key) => (key.toUpperCase() !== key ? { authorization: bearer(key.toUpperCase()) } : undefined), shown: { authorization: bearer(`${K} in upper case`) } },
  { label: 'the key in lower case', make: (key) => (key.toLowerCase() !== key ? { authorization: bearer(key.toLowerCase()) } : undefined), shown: { authorization: bearer(`${K} in lower case`) } },
  { label: 'the key with its letter case swapped', make: (key) => (swapCase(key) !== key ? { authorization: bearer(swapCase(key)) } : undefined), shown: { authorization: bearer(`${K} with its letter case swapped`) } },
  // "Bearer " and "Bearer" are one request: white space around a field value is not part of it (RFC 9110 §5.5).
  { label: 'an empty bearer token ("Bearer" alone)', make: () => ({ authorization: 'Bearer' }), shown: { authorization: 'Bearer' } },
  { label: 'an empty Authorization header', make: () => ({ authorization: '' }), shown: { authorization: '' } },
  { label: 'the key without a scheme', make: (key) => ({ authorization: key }), shown: { authorization: K } },
  { label: 'the key under the Token scheme', make: (key) => ({ authorization: `Token ${key}` }), shown: { authorization: `Token ${K}` } },
  { label: 'the key as Basic credentials', make: (key) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }), shown: { authorization: `Basic <base64 of "${K}:">` } },
  { label: 'the key twice in one header', make: (key) => ({ authorization: `${bearer(key)}, ${bearer(key)}` }), shown: { authorization: `${bearer(K)}, ${bearer(K)}` } },
  { label: 'two Authorization headers, the key first', make: (key) => ({ authorization: [bearer(key), bearer(WRONG)] }), shown: { authorization: [bearer(K), bearer(WRONG)] } },
  { label: 'two Authorization headers, the key second', make: (key) => ({ authorization: [bearer(WRONG), bearer(key)] }), shown: { authorization: [bearer(WRONG), bearer(K)] } },
  { label: 'the key as access_token in the query, no header', make: (key) => ({ query: `access_token=${encodeURIComponent(key)}` }), shown: { query: `access_token=${K}` } },
  { label: 'the key as api_key in the query, no header', make: (key) => ({ query: `api_key=${encodeURIComponent(key)}` }), shown: { query: `api_key=${K}` } },
  ...COOKIE_NAMES.map((name): NearMiss => ({ label: `the key as a cookie ${name}, no header`, make: (key) => ({ fields: { cookie: `${name}=${encodeURIComponent(key)}` } }), shown: { fields: { cookie: `${name}=${K}` } } })),
  ...KEY_FIELDS.map((name): NearMiss => ({ label: `the key in ${name}, no Authorization`, make: (key) => ({ fields: { [name.toLowerCase()]: key } }), shown: { fields: { [name.toLowerCase()]: K } } })),
];

const PROBES: Record<OperationId, { slug: string; request: Omit<ApiRequest, 'auth'> }> = {
  listPets: { slug: 'list-pets', request: { method: 'GET', path: '/pets' } },
  // An empty object, as the other auth rules send: nothing to store even where credentials are wrongly taken.
  createPet: { slug: 'create-pet', request: { method: 'POST', path: '/pets', headers: JSON_BODY, body: '{}' } },
  getPet: { slug: 'get-pet', request: { method: 'GET', path: '/pets/1' } },
};

/** The near-misses of one operation, each sent once: every one must get 401 with an Error body. */
const nearMisses = (operation: OperationId): Rule => ({
  id: `auth-near-misses-${PROBES[operation].slug}`,
  title: `${operation} refuses near-misses of the key (${NEAR_MISSES.length} variants: changed, cut, cased, empty, other schemes, two headers, in the query, a cookie or another field) with 401`,
  operation,
  writes: operation === 'createPet',
  severity: 'contract',
  statement: STATEMENTS.authRequired,
  run: (context) =>
    sweep(
      context,
      NEAR_MISSES,
      async (miss) => {
        const probe = await context.probe({ ...PROBES[operation].request, auth: { nearMiss: miss } });
        // A variant that cannot be made of this key (the upper case of a key without letters) is not sent.
        return probe.exchange.networkError === NOT_SENT ? undefined : probe;
      },
      (miss, { exchange }, plain) => {
        if (exchange.response?.status === 401 || !exchange.response) return [];
        const contrast = plain?.exchange.response ? `; without the key: ${plain.exchange.response.status}` : '';
        return [finding(exchange, `answered ${exchange.response.status} to ${miss.label}${contrast}`, `401 (${cite(STATEMENTS.authRequired)})`, '$.status')];
      },
      // The same request without any key, shown first: the near-miss is all that differs.
      () => context.probe({ ...PROBES[operation].request, auth: 'none' }),
    ),
});

export const authNearMissRules: Rule[] = (['listPets', 'createPet', 'getPet'] as const).map(nearMisses);
