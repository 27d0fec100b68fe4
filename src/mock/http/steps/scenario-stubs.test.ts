import { describe, expect, it } from 'vitest';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { useMock } from '../../../../test/support/use-mock.js';

const folder = scenarioFolder();
const pet = (id: number, name: string) => ({ id, name, categoryId: 1 });
const listAnswer = (name: string) => ({ status: 200, body: [pet(900, name)] });
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('stub matching, over HTTP', () => {
  folder.write('matching.yaml', scenarioWith('matching', [
    { id: 'query-equals', match: { operation: 'listPets', query: { status: { equals: 'sold' }, limit: { equals: 3 } } }, response: listAnswer('query-equals') },
    { id: 'query-matches', match: { operation: 'listPets', query: { limit: { matches: '9\\d' } } }, response: listAnswer('query-matches') },
    { id: 'header-equals', match: { operation: 'listPets', headers: { 'X-Client': { equals: 'ios' } } }, response: listAnswer('header-equals') },
    { id: 'header-matches', match: { operation: 'listPets', headers: { 'x-request-id': { matches: 'qa-\\d+' } } }, response: listAnswer('header-matches') },
    { id: 'absent', match: { operation: 'getPet', query: { full: { equals: 'yes' } }, headers: { 'x-api-version': { absent: true } } }, response: { status: 200, body: pet(904, 'absent') } },
    { id: 'body-equals', match: { operation: 'createPet', body: { categoryId: { equals: 7 }, tags: { equals: ['a', { b: 1 }] } } }, response: { status: 201, body: pet(905, 'body-equals') } },
    { id: 'body-matches', match: { operation: 'createPet', body: { name: { matches: 'Err.*' } } }, response: { status: 400, body: { code: 'invalid_body', message: 'body-matches', status: 400 } } },
    { id: 'body-absent', match: { operation: 'createPet', body: { categoryId: { equals: 8 }, status: { absent: true } } }, response: { status: 201, body: pet(907, 'body-absent') } },
    { id: 'first', match: { operation: 'createPet', body: { name: { equals: 'Both' } } }, response: { status: 201, body: pet(908, 'first') } },
    { id: 'second', match: { operation: 'createPet', body: { name: { equals: 'Both' } } }, response: { status: 201, body: pet(909, 'second') } },
  ]));
  const mock = useMock({ scenario: 'matching', scenariosDir: folder.dir });
  const names = (body: unknown): string[] => (Array.isArray(body) ? body : [body]).map((p: { name: string }) => p.name);

  it('matches query parameters by equals (numbers as text) and by a regular expression over the whole value', async () => {
    expect(names((await mock.authed('/pets?status=sold&limit=3')).json)).toEqual(['query-equals']);
    expect(names((await mock.authed('/pets?limit=3&status=sold')).json)).toEqual(['query-equals']);
    expect((await mock.authed('/pets?status=sold&limit=4')).json).toHaveLength(4);
    expect(names((await mock.authed('/pets?limit=95')).json)).toEqual(['query-matches']);
    // Whole value: 9, 950 and x95 do not match 9\d.
    for (const limit of ['9', '950', 'x95']) expect(names((await mock.authed(`/pets?limit=${limit}`)).json)).not.toContain('query-matches');
  });

  it('matches header names in any case, values exactly', async () => {
    expect(names((await mock.authed('/pets', { headers: { 'X-CLIENT': 'ios' } })).json)).toEqual(['header-equals']);
    expect(names((await mock.authed('/pets', { headers: { 'x-client': 'IOS' } })).json)).not.toContain('header-equals');
    expect(names((await mock.authed('/pets', { headers: { 'X-Request-Id': 'qa-42' } })).json)).toEqual(['header-matches']);
    expect(names((await mock.authed('/pets', { headers: { 'X-Request-Id': 'prod-qa-42' } })).json)).not.toContain('header-matches');
  });

  it('needs every predicate of a stub, absent ones included', async () => {
    expect((await mock.authed('/pets/1?full=yes')).json.name).toBe('absent');
    expect((await mock.authed('/pets/1?full=yes', { headers: { 'x-api-version': '2' } })).json.id).toBe(1);
    expect((await mock.authed('/pets/1')).json.id).toBe(1);
  });

  it('matches top-level body fields: deep equality, regular expressions, absence', async () => {
    expect((await mock.authed('/pets', json({ name: 'X', categoryId: 7, tags: ['a', { b: 1 }] }))).json.name).toBe('body-equals');
    const reordered = await mock.authed('/pets', json({ name: 'X', categoryId: 7, tags: [{ b: 1 }, 'a'] }));
    expect(reordered.status).toBe(201);
    expect(reordered.json.name).toBe('X');
    const refused = await mock.authed('/pets', json({ name: 'Error here', categoryId: 1 }));
    expect([refused.status, refused.json.message]).toEqual([400, 'body-matches']);
    expect((await mock.authed('/pets', json({ name: 'Y', categoryId: 8 }))).json.name).toBe('body-absent');
    expect((await mock.authed('/pets', json({ name: 'Y', categoryId: 8, status: 'sold' }))).json).toMatchObject({ name: 'Y', status: 'sold' });
  });

  it('answers with the first stub that fits, in file order', async () => {
    expect((await mock.authed('/pets', json({ name: 'Both', categoryId: 1 }))).json.name).toBe('first');
    expect((await mock.health()).calls[9]).toBe(0);
  });

  it('sees no body fields in a body that is not JSON, and lets the handler refuse it', async () => {
    const res = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Both"' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('malformed_json');
  });

  // The stubs read the body before the operation does; the operation must still see the bytes sent,
  // so a body that is not UTF-8 (RFC 8259 §8.1) is refused rather than stored with U+FFFD in it.
  it('leaves the body as sent for the operation: invalid UTF-8 is still refused after the stubs read it', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('","categoryId":1}')]);
    const before = (await mock.health()).pets;
    const res = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_json']);
    expect((await mock.health()).pets).toBe(before);
  });

  it('does not change what the handlers store when a stub answers', async () => {
    const before = (await mock.health()).pets;
    await mock.authed('/pets', json({ name: 'Both', categoryId: 1 }));
    expect((await mock.health()).pets).toBe(before);
  });
});

describe('calls: sequences such as "fail twice with 503, then succeed"', () => {
  folder.write('sequences.yaml', scenarioWith('sequences', [
    { id: 'twice-503', match: { operation: 'getPet', calls: { first: 2 } }, fault: { then: { status: 503, retryAfterSeconds: 2 } } },
    { id: 'after-one', match: { operation: 'createPet', calls: { after: 1 } }, fault: { then: { status: 429, retryAfterSeconds: 60 } } },
    { id: 'even-up-to-4', match: { operation: 'listPets', calls: { every: 2, first: 4 } }, fault: { then: { status: 500 } } },
  ]));
  const mock = useMock({ scenario: 'sequences', scenariosDir: folder.dir });

  it('first: 2 answers the first two calls, then the handler does', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await mock.authed('/pets/1');
      statuses.push(res.status);
      if (res.status === 503) {
        expect(res.headers.get('retry-after')).toBe('2');
        expect(res.json).toMatchObject({ code: 'service_unavailable', status: 503 });
        expect(res.json.message).toContain('Retry after 2 seconds. (Simulated by the mock: scenario sequences, stub twice-503.)');
      }
    }
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect((await mock.health()).calls[0]).toBe(4);
  });

  it('after: 1 lets the first call through, then answers every one', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await mock.authed('/pets', json({ name: `N${i}`, categoryId: 1 }))).status);
    expect(statuses).toEqual([201, 429, 429]);
  });

  it('every and first together: calls 2 and 4 only; 500 without Retry-After when none is given', async () => {
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await mock.authed('/pets?limit=1'));
    expect(answers.map((a) => a.status)).toEqual([200, 500, 200, 500, 200, 200, 200]);
    expect(answers[1]?.headers.get('retry-after')).toBeNull();
    expect(answers[1]?.json.code).toBe('internal_error');
  });
});

describe('states, as in WireMock: requiredState and newState', () => {
  folder.write('states.yaml', scenarioWith('states', [
    { id: 'open-then-remove', match: { operation: 'getPet' }, requiredState: 'Open', newState: 'Removed', fault: { then: 'pass' } },
    { id: 'removed', match: { operation: 'getPet' }, requiredState: 'Removed', response: { status: 404, body: { code: 'pet_not_found', message: 'removed', status: 404 } } },
    { id: 'reopen', match: { operation: 'createPet' }, requiredState: 'Removed', newState: 'Open', fault: { then: 'pass' } },
    { id: 'slow-close', match: { operation: 'listPets' }, requiredState: 'Open', newState: 'Closed', fault: { latency: { fixedMs: 300 } } },
    { id: 'closed', match: { operation: 'getPet' }, requiredState: 'Closed', response: { status: 404, body: { code: 'pet_not_found', message: 'closed', status: 404 } } },
  ], { initialState: 'Open' }));
  const mock = useMock({ scenario: 'states', scenariosDir: folder.dir });

  it('starts in initialState, and the request that moves the state is answered in the old one', async () => {
    expect((await mock.health()).state).toBe('Open');
    expect((await mock.authed('/pets/1')).status).toBe(200);
    expect((await mock.health()).state).toBe('Removed');
    const removed = await mock.authed('/pets/1');
    expect([removed.status, removed.json.message]).toEqual([404, 'removed']);
    expect((await mock.authed('/pets/2')).status).toBe(404);
  });

  it('moves on from any operation: createPet reopens', async () => {
    expect((await mock.authed('/pets', json({ name: 'Back', categoryId: 1 }))).status).toBe(201);
    expect((await mock.health()).state).toBe('Open');
    expect((await mock.authed('/pets/1')).status).toBe(200);
    expect((await mock.health()).state).toBe('Removed');
    await mock.authed('/pets', json({ name: 'Again', categoryId: 1 }));
    expect((await mock.health()).state).toBe('Open');
  });

  it('moves the state when the stub is picked, with its call count: during the stub\'s latency the new state applies already', async () => {
    let settled = false;
    const slow = mock.authed('/pets?limit=1').then((res) => ((settled = true), res));
    // The slow listPets (300 ms of latency) is picked long before 100 ms have passed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await mock.authed('/pets/3');
    expect([during.status, during.json.message, settled]).toEqual([404, 'closed', false]);
    expect((await slow).status).toBe(200);
    expect((await mock.health()).state).toBe('Closed');
  });
});

describe('where stubs apply', () => {
  folder.write('everywhere.yaml', scenarioWith('everywhere', [{ id: 'all', match: { operation: '*' }, fault: { then: { status: 503, retryAfterSeconds: 5 } } }]));
  const mock = useMock({ scenario: 'everywhere', scenariosDir: folder.dir });

  it('after auth: a missing or wrong key still gets 401, and is not counted', async () => {
    expect((await mock.request('/pets')).status).toBe(401);
    expect((await mock.request('/pets/1', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await mock.health()).calls[0]).toBe(0);
  });

  it('on every documented operation, before request validation', async () => {
    for (const [path, init] of [['/pets', {}], ['/pets?limit=0', {}], ['/pets/1', {}], ['/pets/abc', {}], ['/pets', json({ name: 'Rex', categoryId: 1 })], ['/pets', json({})]] as const) {
      const res = await mock.authed(path, init);
      expect(res.status, `${path}`).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('not on what is not an operation: unknown paths, other methods, the orders area, preflights, health', async () => {
    expect((await mock.authed('/nothing')).status).toBe(404);
    expect((await mock.authed('/pets', { method: 'DELETE' })).status).toBe(405);
    expect((await mock.authed('/store/orders')).status).toBe(501);
    expect((await mock.request('/pets', { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } })).status).toBe(204);
    const health = await fetch(new URL('/__mock/health', mock.url));
    expect(health.status).toBe(200);
  });

  it('not before the body limit: an oversized createPet gets 413', async () => {
    const res = await mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 }) });
    expect(res.status).toBe(413);
  });
});
