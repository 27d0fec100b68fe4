import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../test/support/use-mock.js';

const SECOND_KEY = 'second.key~with+token68/chars==';

// One request per operation, each also invalid in another way, so the test
// shows that auth is checked first: 401 wins over 400 and 404.
const operations = [
  { name: 'listPets', path: '/pets', init: {} },
  { name: 'listPets with a bad limit (else 400)', path: '/pets?limit=0', init: {} },
  { name: 'createPet', path: '/pets', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' } },
  { name: 'createPet with a bad body (else 400)', path: '/pets', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":5}' } },
  { name: 'getPet', path: '/pets/1', init: {} },
  { name: 'getPet with an unknown id (else 404)', path: '/pets/999999', init: {} },
  { name: 'an unknown path (else 404)', path: '/nothing-here', init: {} },
] as const;

// The credentials tried: missing, empty, scheme only, wrong key, a key's
// prefix and extension, other schemes, the key without a scheme, and a key
// in the query string instead of the header.
const badCredentials: Array<[string, string | undefined]> = [
  ['no Authorization header', undefined],
  ['an empty header', ''],
  ['the scheme alone', 'Bearer'],
  ['the scheme and a space', 'Bearer '],
  ['a wrong key', 'Bearer wrong-key'],
  ['a prefix of the key', `Bearer ${TEST_KEY.slice(0, -1)}`],
  ['the key with a suffix', `Bearer ${TEST_KEY}x`],
  ['the key without a scheme', TEST_KEY],
  ['Basic credentials', `Basic ${Buffer.from(`user:${TEST_KEY}`).toString('base64')}`],
  ['the Token scheme', `Token ${TEST_KEY}`],
  ['two keys', `Bearer ${TEST_KEY} ${TEST_KEY}`],
  ['a comma-joined scheme', `Bearer,${TEST_KEY}`],
];

describe('bearer key auth', () => {
  const mock = useMock({ apiKeys: [TEST_KEY, SECOND_KEY] });

  describe.each(operations)('$name', ({ path, init }) => {
    it.each(badCredentials)('answers 401 with an Error body for %s', async (_, authorization) => {
      const headers = { ...(init as { headers?: Record<string, string> }).headers };
      if (authorization !== undefined) headers.authorization = authorization;
      const res = await mock.request(path, { ...init, headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });
  });

  it('refuses a key sent in the query string', async () => {
    const res = await mock.request(`/pets?api_key=${TEST_KEY}`);
    expect(res.status).toBe(401);
  });

  // RFC 9110 §11.1: the scheme name is case-insensitive.
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s', async (scheme) => {
    const res = await mock.request('/pets', { headers: { authorization: `${scheme} ${TEST_KEY}` } });
    expect(res.status).toBe(200);
  });

  it('accepts several spaces between scheme and key (RFC 9110 §11.4: 1*SP)', async () => {
    const res = await mock.request('/pets', { headers: { authorization: `Bearer   ${TEST_KEY}` } });
    expect(res.status).toBe(200);
  });

  it('accepts every configured key, with any token68 characters', async () => {
    for (const key of [TEST_KEY, SECOND_KEY]) {
      const res = await mock.request('/pets', { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    }
  });

  it('never stores anything on an unauthorized createPet', async () => {
    const before = mock.store.size;
    await mock.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
    expect(mock.store.size).toBe(before);
  });
});
