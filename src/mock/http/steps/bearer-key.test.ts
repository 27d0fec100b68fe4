import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../test/support/raw-request.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import type { Session } from '../../core/store/mock-store.js';
import { chain, newExchange, type MockEnv } from '../exchange.js';
import { respond } from '../respond.js';
import { bearerKey } from './bearer-key.js';

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

  // RFC 9110 §11.6.2: Authorization is one credentials value, so two headers are ambiguous,
  // whichever comes first (node's req.headers keeps only the first; the mock counts rawHeaders).
  describe('more than one Authorization header', () => {
    const valid = `Bearer ${TEST_KEY}`;
    const wrong = 'Bearer wrong-key';
    const pairs: Array<[string, string[]]> = [
      ['valid then wrong', [valid, wrong]],
      ['wrong then valid', [wrong, valid]],
      ['valid twice', [valid, valid]],
      ['two different accepted keys', [valid, `Bearer ${SECOND_KEY}`]],
      ['valid three times', [valid, valid, valid]],
    ];

    it.each(pairs)('answers 401 with an Error body to listPets for %s', async (_, values) => {
      const res = await rawRequest(`${mock.url}/pets`, { authorization: values });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="animal-store"');
      expect(res.json).toEqual({ code: 'unauthorized', message: 'Missing or invalid API key: send Authorization: Bearer <API_KEY>.', status: 401 });
    });

    it('answers 401 to getPet and createPet too, and stores nothing', async () => {
      const before = (await mock.health()).pets;
      const got = await rawRequest(`${mock.url}/pets/1`, { authorization: [valid, wrong] });
      expect(got.status).toBe(401);
      const created = await rawRequest(`${mock.url}/pets`, { authorization: [valid, valid], 'content-type': 'application/json' }, 'POST', '{"name":"Rex","categoryId":1}');
      expect(created.status).toBe(401);
      expect(created.json.code).toBe('unauthorized');
      expect((await mock.health()).pets).toBe(before);
    });

    it('counts the header name in any letter case', async () => {
      // Two distinct keys of one object: node sends both lines as written.
      const res = await rawRequest(`${mock.url}/pets`, { Authorization: valid, AUTHORIZATION: wrong });
      expect(res.status).toBe(401);
    });

    it('still answers 200 to one valid header sent the same way, next to other repeated headers', async () => {
      const res = await rawRequest(`${mock.url}/pets?limit=3`, { authorization: valid, accept: ['application/json', '*/*'] });
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(3);
    });
  });

  // Over real HTTP, @hono/node-server 2.x happens to read `authorization` from
  // rawHeaders and join repeats with ", ", which the credentials pattern refuses
  // anyway. The step must not depend on that: here the request's Headers
  // hold only the first (valid) value, as node's req.headers does, while the
  // node request's rawHeaders hold both.
  describe('counts rawHeaders itself, whatever the Headers object shows', () => {
    const app = new Hono<MockEnv>();
    const checked = chain([bearerKey({ keys: [TEST_KEY] })], (x) => respond(x, 200, '[]'));
    // The step reads no session: none is needed for this app.
    app.get('/pets', (c) => checked(newExchange(c, null, {} as Session)));
    const fetchWith = (rawHeaders: string[]) =>
      app.fetch(new Request('http://mock.test/pets', { headers: { authorization: `Bearer ${TEST_KEY}` } }), { incoming: { rawHeaders }, outgoing: {} });

    it('answers 401 when the node request had two Authorization headers', async () => {
      const res = await fetchWith(['Host', 'mock.test', 'Authorization', `Bearer ${TEST_KEY}`, 'authorization', 'Bearer wrong-key']);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
    });

    it('answers 200 when it had one', async () => {
      const res = await fetchWith(['Host', 'mock.test', 'Authorization', `Bearer ${TEST_KEY}`, 'Accept', '*/*', 'Accept', 'application/json']);
      expect(res.status).toBe(200);
    });
  });

  it('never stores anything on an unauthorized createPet', async () => {
    const before = (await mock.health()).pets;
    await mock.request('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
    expect((await mock.health()).pets).toBe(before);
  });
});
