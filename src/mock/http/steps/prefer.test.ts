import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

const pet = (id: number, name: string, status?: 'available' | 'pending' | 'sold') => ({ id, name, categoryId: 1, ...(status && { status }) });
const prefer = (value: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { prefer: value, ...(init.headers as Record<string, string>) } });
const post = (body: unknown, value: string): RequestInit => prefer(value, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const biscuit = { id: 1, name: 'Biscuit', categoryId: 2, status: 'available' };

describe('Prefer: code, example, dynamic (RFC 7240, Prism meanings), over HTTP', () => {
  const mock = useMock({ pets: [pet(1, 'Rex', 'available'), pet(2, 'Tom', 'sold')] });

  describe('code=', () => {
    it('answers a documented status with its example, and says so in Preference-Applied', async () => {
      const res = await mock.authed('/pets/1', prefer('code=404'));
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ code: 'pet_not_found', message: 'No animal has the id 1.', status: 404 });
      expect(res.headers.get('preference-applied')).toBe('code=404');
    });

    it('gives a success status its documented example, not the store', async () => {
      expect((await mock.authed('/pets', prefer('code=200'))).json).toEqual([biscuit, { id: 4, name: 'Luna', categoryId: 1, status: 'available' }]);
      expect((await mock.authed('/pets/999', prefer('code=200'))).json).toEqual(biscuit);
    });

    it('resolves $ref responses: code=401 with an accepted key gives the Unauthorized example', async () => {
      const res = await mock.authed('/pets', prefer('code=401'));
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ code: 'unauthorized', message: 'Missing or invalid API key.', status: 401 });
    });

    it('changes no state: createPet with code=201 or code=400 stores nothing', async () => {
      const before = (await mock.health()).pets;
      const created = await mock.authed('/pets', post({ name: 'Kept?', categoryId: 1 }, 'code=201'));
      expect(created.status).toBe(201);
      expect(created.json).toEqual({ id: 42, name: 'Biscuit', categoryId: 2, status: 'available' });
      const refused = await mock.authed('/pets', post({ name: 'Kept?', categoryId: 1 }, 'code=400'));
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({ code: 'invalid_body', message: 'name: is required', status: 400 });
      expect((await mock.health()).pets).toBe(before);
    });

    it('comes after auth: a bad key still gets 401 unauthorized', async () => {
      const res = await mock.request('/pets/1', prefer('code=200', { headers: { authorization: 'Bearer wrong' } }));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('preference-applied')).toBeNull();
    });
  });

  describe('example=', () => {
    it('picks a named example of the success status', async () => {
      const empty = await mock.authed('/pets', prefer('example=empty'));
      expect(empty.json).toEqual([]);
      expect(empty.headers.get('preference-applied')).toBe('example=empty');
      const sold = await mock.authed('/pets', prefer('example=sold'));
      expect(sold.json.map((p: { status: string }) => p.status)).toEqual(['sold', 'sold']);
      expect((await mock.authed('/pets/1', prefer('example=sold'))).json).toMatchObject({ id: 7, status: 'sold' });
    });

    it('combines with code= (the example of that status) and with createPet', async () => {
      const missing = await mock.authed('/pets/1', prefer('code=404, example=default'));
      expect(missing.status).toBe(404);
      expect(missing.headers.get('preference-applied')).toBe('code=404, example=default');
      const malformed = await mock.authed('/pets', post({ name: 'x', categoryId: 1 }, 'code=400, example=malformed-json'));
      expect(malformed.json.code).toBe('malformed_json');
      const created = await mock.authed('/pets', post({ name: 'x', categoryId: 1 }, 'example=without-status'));
      expect(created.json).toEqual({ id: 43, name: 'Luna', categoryId: 1 });
    });

    it('reads a quoted value and ignores parameters after ;', async () => {
      expect((await mock.authed('/pets', prefer('example="empty"; foo=bar'))).json).toEqual([]);
    });
  });

  describe('dynamic=true', () => {
    it('listPets: limit generated Pets, all with the asked status, ordered by id', async () => {
      const res = await mock.authed('/pets?limit=7&status=pending', prefer('dynamic=true'));
      expect(res.status).toBe(200);
      expect(res.headers.get('preference-applied')).toBe('dynamic=true');
      expect(res.json).toHaveLength(7);
      for (const p of res.json) expect(p).toMatchObject({ id: expect.any(Number), name: expect.any(String), categoryId: expect.any(Number), status: 'pending' });
      const ids = res.json.map((p: { id: number }) => p.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(7);
      expect((await mock.authed('/pets', prefer('dynamic=true'))).json).toHaveLength(20);
    });

    it('getPet: a generated Pet with the asked id, even one the store lacks', async () => {
      const res = await mock.authed('/pets/123456', prefer('dynamic=true'));
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: 123456, name: expect.any(String) });
    });

    it('createPet: the sent fields plus a generated id, not stored', async () => {
      const before = (await mock.health()).pets;
      const res = await mock.authed('/pets', post({ name: 'Nova', categoryId: 5, status: 'pending', extra: 1 }, 'dynamic=true'));
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ id: expect.any(Number), name: 'Nova', categoryId: 5, status: 'pending' });
      const bare = await mock.authed('/pets', post({ name: 'Bare', categoryId: 5 }, 'dynamic=true'));
      expect(bare.json).toEqual({ id: expect.any(Number), name: 'Bare', categoryId: 5 });
      expect((await mock.health()).pets).toBe(before);
    });

    it('validates the request as the handler does', async () => {
      expect((await mock.authed('/pets?limit=0', prefer('dynamic=true'))).json.code).toBe('invalid_parameter');
      expect((await mock.authed('/pets?status=lost', prefer('dynamic=true'))).json.code).toBe('invalid_parameter');
      expect((await mock.authed('/pets', post({ name: 'No category' }, 'dynamic=true'))).json.code).toBe('invalid_body');
      expect((await mock.authed('/pets/abc', prefer('dynamic=true'))).json.code).toBe('pet_not_found');
    });

    it('generates no more than the document allows, whatever the client asks: limit over 100 is refused, not generated', async () => {
      expect((await mock.authed('/pets?limit=100', prefer('dynamic=true'))).json).toHaveLength(100);
      const huge = await mock.authed('/pets?limit=100000000', prefer('dynamic=true'));
      expect([huge.status, huge.json.code]).toEqual([400, 'invalid_parameter']);
    });

    it('reads a Prefer header near node\'s 16 KiB limit, thousands of tokens long, and answers as asked', async () => {
      const tokens = Array.from({ length: 1500 }, (_, i) => `t${i}=${i}`).join(', ');
      const res = await mock.authed('/pets?limit=3', prefer(`${tokens}, dynamic=true`));
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(3);
      expect(res.headers.get('preference-applied')).toBe('dynamic=true');
    });

    it('with code= a non-success status: a generated Error of that status', async () => {
      const res = await mock.authed('/pets/1', prefer('code=404, dynamic=true'));
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: expect.any(String), message: expect.any(String), status: 404 });
      expect(res.headers.get('preference-applied')).toBe('code=404, dynamic=true');
    });

    it('dynamic=false is the same as no preference', async () => {
      const res = await mock.authed('/pets', prefer('dynamic=false'));
      expect(res.json.map((p: { name: string }) => p.name)).toEqual(['Rex', 'Tom']);
      expect(res.headers.get('preference-applied')).toBeNull();
    });
  });

  describe('several preferences and unknown ones', () => {
    it('ignores unknown preferences (RFC 7240 §2) and lists only what applied', async () => {
      const res = await mock.authed('/pets/1', prefer('respond-async, wait=10, CODE=404, handling=lenient'));
      expect(res.status).toBe(404);
      expect(res.headers.get('preference-applied')).toBe('code=404');
      const plain = await mock.authed('/pets/1', prefer('respond-async, return=minimal'));
      expect(plain.json).toEqual(pet(1, 'Rex', 'available'));
      expect(plain.headers.get('preference-applied')).toBeNull();
    });

    it('combines several Prefer headers; the first of a repeated preference counts', async () => {
      const headers = new Headers([['authorization', `Bearer ${TEST_KEY}`], ['prefer', 'code=404'], ['prefer', 'example=default, code=200']]);
      const res = await mock.request('/pets/1', { headers });
      expect(res.status).toBe(404);
      expect(res.headers.get('preference-applied')).toBe('code=404, example=default');
    });
  });

  describe('delay=MS', () => {
    it('answers as it would have, after the delay, and says it applied', async () => {
      const started = performance.now();
      const res = await mock.authed('/pets/1', prefer('delay=300'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect([res.status, res.json, res.headers.get('preference-applied')]).toEqual([200, pet(1, 'Rex', 'available'), 'delay=300']);
    });

    it('goes with the others: code=404, delay=50 gives the 404 after the delay, both applied', async () => {
      const res = await mock.authed('/pets/1', prefer('delay=50, code=404'));
      expect([res.status, res.headers.get('preference-applied')]).toEqual([404, 'code=404, delay=50']);
    });

    it('comes after auth: a 401 does not wait', async () => {
      const res = await mock.request('/pets/1', prefer('delay=600000', { headers: { authorization: 'Bearer wrong' } }));
      expect([res.status, res.headers.get('preference-applied')]).toEqual([401, null]);
    });
  });

  describe('bad preferences: 400 invalid_preference naming them', () => {
    it.each([
      ['/pets', 'delay=abc', /delay=abc is not allowed; use delay=MS, a whole number of milliseconds from 0 to 600000/],
      ['/pets', 'delay=-1', /delay=-1 is not allowed/],
      ['/pets', 'delay=1.5', /delay=1\.5 is not allowed/],
      ['/pets', 'delay=600001', /delay=600001 is not allowed/],
      ['/pets', 'delay=99999999999999999999', /is not allowed; use delay=MS/],
      ['/pets', 'delay', /delay= is not allowed/],
      ['/pets/1', 'delay=5, code=418', /code=418 is not a status getPet documents/],
      ['/pets', 'code=404', /code=404 is not a status listPets documents; documented statuses: 200, 401/],
      ['/pets', 'code=abc', /code=abc .*200, 401/],
      ['/pets', 'code=', /code= is not a status/],
      ['/pets', 'code', /code= is not a status/],
      ['/pets/1', 'code=418', /code=418 is not a status getPet documents; documented statuses: 200, 401, 404\. It would break a promise of the contract document \(getPet answers only 200, 401, 404\); outside it, the mock simulates only outages: code=500, 502, 503, 504, 429\./],
      ['/pets', 'code=201', /listPets answers 200 on success, never 201/],
      ['/pets/1', 'code=501', /code=500, 502, 503, 504, 429/],
      ['/pets/1', 'code=503, example=default', /code=503 is outside the contract document, which gives it no example or schema, so example=default cannot go with it; send code=503 alone/],
      ['/pets/1', 'code=500, dynamic=true', /so dynamic=true cannot go with it/],
      ['/pets/1', 'code=2000', /code=2000/],
      ['/pets', 'example=nope', /example=nope names no example of listPets's 200 response; its examples: default, empty, sold/],
      ['/pets', 'example=', /example= names no example/],
      ['/pets/1', 'code=404, example=sold', /example=sold names no example of getPet's 404 response; its examples: default/],
      ['/pets', 'dynamic=yes', /dynamic=yes is not allowed; use dynamic=true or dynamic=false/],
      ['/pets', 'dynamic=', /dynamic= is not allowed/],
      ['/pets', 'dynamic', /dynamic= is not allowed/],
      ['/pets', 'dynamic=TRUE', /dynamic=TRUE is not allowed/],
      ['/pets', 'example=sold, dynamic=true', /example=sold and dynamic=true contradict/],
      ['/pets', 'respond-async, code=abc', /code=abc/],
    ])('GET %s with Prefer: %s', async (path, value, message) => {
      const res = await mock.authed(path, prefer(value));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'invalid_preference', status: 400, message: expect.stringMatching(message) });
    });

    it('refuses code=200 on createPet, saying which promise it would break', async () => {
      const before = (await mock.health()).pets;
      const res = await mock.authed('/pets', post({ name: 'x', categoryId: 1 }, 'code=200'));
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        code: 'invalid_preference',
        message: 'Prefer: code=200 is not a status createPet documents; documented statuses: 201, 400, 401. It would break a promise of the contract document (createPet answers 201 on success, never 200); outside it, the mock simulates only outages: code=500, 502, 503, 504, 429.',
        status: 400,
      });
      expect(res.headers.get('preference-applied')).toBeNull();
      expect((await mock.health()).pets).toBe(before);
    });

    it('refuses on createPet too, storing nothing', async () => {
      const before = (await mock.health()).pets;
      const res = await mock.authed('/pets', post({ name: 'x', categoryId: 1 }, 'code=404'));
      expect(res.json).toMatchObject({ code: 'invalid_preference', message: expect.stringMatching(/201, 400, 401/) });
      expect((await mock.health()).pets).toBe(before);
    });

    it('still gives a bad key 401 first', async () => {
      const res = await mock.request('/pets', prefer('code=abc'));
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('unauthorized');
    });
  });

  it('lets browsers send Prefer and read Preference-Applied (CORS)', async () => {
    const preflight = await mock.request('/pets', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, prefer' },
    });
    expect((preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('prefer');
    const res = await mock.authed('/pets', prefer('code=200', { headers: { origin: 'http://localhost:5173' } }));
    expect((res.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('preference-applied');
  });
});

describe('Prefer: code= an outage status, outside the contract document, over HTTP', () => {
  const mock = useMock({ pets: [pet(1, 'Rex', 'available')] });
  const outages = [
    [500, 'internal_error', null],
    [502, 'upstream_unavailable', null],
    [503, 'service_unavailable', '1'],
    [504, 'upstream_timeout', null],
    [429, 'too_many_requests', '1'],
  ] as const;

  it.each(outages)('code=%i: that status on every operation, an Error body, Retry-After %s', async (status, code, retryAfter) => {
    for (const [path, init] of [['/pets', prefer(`code=${status}`)], ['/pets/1', prefer(`code=${status}`)], ['/pets/999', prefer(`code=${status}`)]] as const) {
      const res = await mock.authed(path, init);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({ code, message: expect.stringContaining(`(Simulated by the mock: Prefer: code=${status}.)`), status });
      expect(res.headers.get('retry-after')).toBe(retryAfter);
      expect(res.headers.get('preference-applied')).toBe(`code=${status}, outside-contract`);
    }
  });

  it('on createPet, stores nothing and does not read the body', async () => {
    const before = (await mock.health()).pets;
    const res = await mock.authed('/pets', post({ name: 'Kept?', categoryId: 1 }, 'code=503'));
    expect(res.status).toBe(503);
    expect(res.json.message).toBe('The service is temporarily unavailable. Retry after 1 second. (Simulated by the mock: Prefer: code=503.)');
    const malformed = await mock.authed('/pets', prefer('code=500', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }));
    expect(malformed.status).toBe(500);
    expect((await mock.health()).pets).toBe(before);
  });

  it('the journal says the answer is outside the contract document', async () => {
    await mock.authed('/pets/1', prefer('code=504'));
    const journal = await mock.admin('/journal');
    const entries = (journal.json.entries ?? journal.json) as Array<{ status: number; unmatched?: string }>;
    const entry = entries.find((e) => e.status === 504);
    expect(entry?.unmatched).toBe('answered by Prefer: code=504, outside-contract');
  });

  it('comes after auth: no key still gets 401', async () => {
    const res = await mock.request('/pets/1', prefer('code=500'));
    expect(res.status).toBe(401);
    expect(res.headers.get('preference-applied')).toBeNull();
  });
});

describe('Prefer over an active scenario', () => {
  const mock = useMock({ scenario: 'not-found' });

  it('wins over the scenario\'s stubs for that request, which the journal tells', async () => {
    expect((await mock.authed('/pets/1')).status).toBe(404);
    const res = await mock.authed('/pets/1', prefer('code=200'));
    expect(res.status).toBe(200);
    const journal = await mock.admin('/journal');
    const entries = journal.json.entries ?? journal.json;
    expect(JSON.stringify(entries)).toContain('answered by Prefer: code=200');
  });
});
