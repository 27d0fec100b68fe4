import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

const KEY = 'ref-key.42';
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_UTF8 = 'application/json; charset=utf-8';

type Pet = { id: number; name: string; categoryId: number; status?: string };

/** node:http, which sends an array header value as that many header lines (fetch would join them). */
function rawRequest(url: string, headers: Record<string, string | string[]>): Promise<{ status: number; headers: IncomingHttpHeaders; json: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: headers as OutgoingHttpHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the reference server', () => {
  let server: ReferenceServer;
  const get = (path: string, headers: Record<string, string> = AUTH) => fetch(`${server.url}${path}`, { headers });
  const create = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/pets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json', ...headers }, body });

  beforeAll(async () => {
    server = await startReferenceServer({ apiKey: KEY });
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves below /v1 on 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  describe('authentication, checked first', () => {
    const refused: Array<[string, Record<string, string>]> = [
      ['no header', {}],
      ['an empty header', { authorization: '' }],
      ['the scheme alone', { authorization: 'Bearer' }],
      ['an empty token', { authorization: 'Bearer ' }],
      ['the key without a scheme', { authorization: KEY }],
      ['another scheme', { authorization: `Token ${KEY}` }],
      ['a character appended', { authorization: `Bearer ${KEY}x` }],
      ['a character removed', { authorization: `Bearer ${KEY.slice(0, -1)}` }],
      ['a character changed', { authorization: `Bearer ${KEY.slice(0, -1)}3` }],
      ['the key in upper case', { authorization: `Bearer ${KEY.toUpperCase()}` }],
    ];

    it.each(refused)('answers 401 with the Error body and WWW-Authenticate for %s', async (_, headers) => {
      const res = await get('/pets', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe(JSON_UTF8);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ code: 'unauthenticated', message: expect.any(String), status: 401 });
    });

    it('refuses the key in the query string', async () => {
      expect((await get(`/pets?access_token=${KEY}`, {})).status).toBe(401);
    });

    it('answers 401 before 400 and 404', async () => {
      expect((await get('/pets?limit=0', {})).status).toBe(401);
      expect((await get('/pets/999999', {})).status).toBe(401);
      expect((await get('/nowhere', {})).status).toBe(401);
    });

    it('accepts the scheme in any case with several spaces', async () => {
      expect((await get('/pets', { authorization: `bEaReR   ${KEY}` })).status).toBe(200);
    });

    it.each<[string, string[]]>([
      ['valid then wrong', [`Bearer ${KEY}`, 'Bearer wrong']],
      ['wrong then valid', ['Bearer wrong', `Bearer ${KEY}`]],
      ['valid twice', [`Bearer ${KEY}`, `Bearer ${KEY}`]],
    ])('refuses two Authorization headers (%s), but not one sent the same way', async (_, values) => {
      const two = await rawRequest(`${server.url}/pets`, { authorization: values });
      expect(two.status).toBe(401);
      expect(two.json).toEqual({ code: 'unauthenticated', message: expect.any(String), status: 401 });
      const one = await rawRequest(`${server.url}/pets`, { authorization: `Bearer ${KEY}` });
      expect(one.status).toBe(200);
    });
  });

  describe('listPets', () => {
    it('answers 20 animals by default, newest first', async () => {
      const res = await get('/pets');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(JSON_UTF8);
      const pets = (await res.json()) as Pet[];
      expect(pets).toHaveLength(20);
      expect(pets[0]).toEqual({ id: 40, name: 'Daisy 40', categoryId: 1 });
      expect(pets.map((p) => p.id)).toEqual([...Array(20).keys()].map((i) => 40 - i));
    });

    it('clamps a limit above 100 to 100', async () => {
      const many = await startReferenceServer({ apiKey: KEY, pets: [...Array(150).keys()].map((i) => ({ id: i + 1, name: `P${i + 1}`, categoryId: 1 })) });
      try {
        for (const limit of ['250', '101', '99999999999999999999999']) {
          const res = await fetch(`${many.url}/pets?limit=${limit}`, { headers: AUTH });
          expect(res.status).toBe(200);
          const pets = (await res.json()) as Pet[];
          expect(pets).toHaveLength(100);
          expect(pets[0]?.id).toBe(150);
          expect(pets[99]?.id).toBe(51);
        }
        expect(await (await fetch(`${many.url}/pets?limit=100`, { headers: AUTH })).json()).toHaveLength(100);
        expect(await (await fetch(`${many.url}/pets?limit=007`, { headers: AUTH })).json()).toHaveLength(7);
      } finally {
        await many.close();
      }
    });

    it('answers at most limit animals, and only those of the status asked', async () => {
      const pets = (await (await get('/pets?status=pending&limit=3')).json()) as Pet[];
      expect(pets).toEqual([
        { id: 38, name: 'Coco 38', categoryId: 2, status: 'pending' },
        { id: 34, name: 'Milo 34', categoryId: 4, status: 'pending' },
        { id: 30, name: 'Daisy 30', categoryId: 1, status: 'pending' },
      ]);
    });

    it.each([
      ['limit=0', 'bad_limit'],
      ['limit=1.5', 'bad_limit'],
      ['limit=abc', 'bad_limit'],
      ['status=Available', 'bad_status'],
      ['status=lost', 'bad_status'],
    ])('answers 400 to %s', async (query, code) => {
      const res = await get(`/pets?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code, message: expect.any(String), status: 400 });
    });
  });

  describe('createPet and getPet', () => {
    it('round-trips a tricky name exactly, with Location, and serves it by id', async () => {
      const name = '  Ünïcødé 🐕‍🦺 "quoted" \\ \u0000\u001f\t\n 𝔘 \u202e ';
      const res = await create(JSON.stringify({ name, categoryId: 1.0, status: 'sold', id: 5, extra: true }));
      expect(res.status).toBe(201);
      const pet = (await res.json()) as Pet;
      expect(pet).toEqual({ id: expect.any(Number), name, categoryId: 1, status: 'sold' });
      expect(pet.id).toBeGreaterThan(40);
      expect(res.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
      const got = await get(`/pets/${pet.id}`);
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(pet);
      expect(got.headers.get('deprecation')).toBe('@1795305600');
      expect(got.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(got.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    });

    it('makes an animal created without status available, and gives concurrent creates distinct ids', async () => {
      const answers = await Promise.all([...Array(10).keys()].map((i) => create(JSON.stringify({ name: `Twin ${i}`, categoryId: 2 }))));
      const pets = (await Promise.all(answers.map((r) => r.json()))) as Pet[];
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(new Set(pets.map((p) => p.id)).size).toBe(10);
      expect(pets.every((p) => p.status === 'available')).toBe(true);
    });

    it.each([
      ['malformed JSON', '{"name":'],
      ['an empty body', ''],
      ['JSON null', 'null'],
      ['an array', '[]'],
      ['a missing name', '{"categoryId":1}'],
      ['a numeric name', '{"name":5,"categoryId":1}'],
      ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}'],
      ['a categoryId beyond int64', '{"name":"Rex","categoryId":9223372036854775808}'],
      ['a string categoryId', '{"name":"Rex","categoryId":"1"}'],
      ['a null status', '{"name":"Rex","categoryId":1,"status":null}'],
      ['a padded status', '{"name":"Rex","categoryId":1,"status":"sold "}'],
      ['a name of 1001 characters', JSON.stringify({ name: '🐕'.repeat(1001), categoryId: 1 })],
    ])('answers 400 to %s', async (_, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe(JSON_UTF8);
      expect(await res.json()).toEqual({ code: expect.any(String), message: expect.any(String), status: 400 });
    });

    it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808'])('keeps categoryId %s exactly (int64 past 2^53)', async (digits) => {
      const res = await create(`{"name":"Big","categoryId":${digits}}`);
      expect(res.status).toBe(201);
      const text = await res.text();
      expect(text).toContain(`"categoryId":${digits}`);
      const id = /"id":(\d+)/.exec(text)?.[1];
      expect(await (await get(`/pets/${id}`)).text()).toBe(text);
    });

    it('accepts a name of 1000 characters', async () => {
      expect((await create(JSON.stringify({ name: '🐕'.repeat(1000), categoryId: 1 }))).status).toBe(201);
    });

    it('answers 415 to another media type and 413 to a body over 64 KiB', async () => {
      const wrongType = await create('{"name":"Rex","categoryId":1}', { 'content-type': 'text/plain' });
      expect(wrongType.status).toBe(415);
      expect(await wrongType.json()).toEqual({ code: 'unsupported_media_type', message: expect.any(String), status: 415 });
      expect((await create('{"name":"Rex","categoryId":1}', { 'content-type': 'Application/JSON; charset=UTF-8' })).status).toBe(201);
      const big = await create(JSON.stringify({ name: 'Rex', categoryId: 1, pad: 'x'.repeat(70_000) }));
      expect(big.status).toBe(413);
    });

    it('answers 404 to an unknown id, 400 to a malformed one, with the deprecation headers', async () => {
      const missing = await get('/pets/999999');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ code: 'no_such_pet', message: expect.any(String), status: 404 });
      expect(missing.headers.get('deprecation')).toBe('@1795305600');
      for (const id of ['abc', '1.5', '9223372036854775808']) {
        const res = await get(`/pets/${id}`);
        expect(res.status).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('bad_pet_id');
      }
      expect((await get('/pets/9223372036854775807')).status).toBe(404);
    });

    it('answers HEAD as GET without content, 405 with Allow to another method on its paths', async () => {
      const head = await fetch(`${server.url}/pets/1`, { method: 'HEAD', headers: AUTH });
      expect([head.status, await head.text()]).toEqual([200, '']);
      for (const [method, path, allow] of [['DELETE', '/pets/1', 'GET, HEAD'], ['PUT', '/pets', 'GET, HEAD, POST'], ['OPTIONS', '/pets', 'GET, HEAD, POST']] as const) {
        const res = await fetch(`${server.url}${path}`, { method, headers: AUTH });
        expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, allow]);
        expect(await res.json()).toEqual({ code: 'method_not_allowed', message: expect.any(String), status: 405 });
      }
    });

    it('answers 404 with the Error body to anything else', async () => {
      for (const [method, path] of [['GET', '/store/orders'], ['DELETE', '/store/orders'], ['GET', '/pets/']]) {
        const res = await fetch(`${server.url}${path}`, { method, headers: AUTH });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe(JSON_UTF8);
        expect(await res.json()).toEqual({ code: 'no_such_route', message: expect.any(String), status: 404 });
      }
    });
  });

  it('serves a given catalogue instead, and continues its ids', async () => {
    const own = await startReferenceServer({ apiKey: KEY, pets: [{ id: 7, name: 'Seven', categoryId: 3 }, { id: 2, name: 'Two', categoryId: 1, status: 'sold' }] });
    try {
      const list = await fetch(`${own.url}/pets`, { headers: AUTH });
      expect(await list.json()).toEqual([{ id: 7, name: 'Seven', categoryId: 3 }, { id: 2, name: 'Two', categoryId: 1, status: 'sold' }]);
      const created = await fetch(`${own.url}/pets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Eight","categoryId":1}' });
      expect(created.headers.get('location')).toBe('/v1/pets/8');
    } finally {
      await own.close();
    }
  });
});
