import { describe, expect, it } from 'vitest';
import { adminDocumentChecker } from '../../../../test/support/admin-document.js';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { useMock } from '../../../../test/support/use-mock.js';

/** The admin API under /__mock, over real HTTP on an ephemeral port, with a scenarios folder of its own. */
const folder = scenarioFolder();
const pet = (id: number, name: string) => ({ id, name, categoryId: 1 });
const put = (body: string): RequestInit => ({ method: 'PUT', headers: { 'content-type': 'application/json' }, body });
const activate = (name: string) => put(JSON.stringify({ name }));
const newPet = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

folder.write('plain.yaml', scenarioWith('plain', []));
folder.write('stubbed.yaml', scenarioWith('stubbed', [
  { id: 'open-door', match: { operation: 'listPets', query: { status: { equals: 'pending' } } }, newState: 'Open', response: { status: 200, body: [pet(901, 'door')] } },
  { id: 'when-open', requiredState: 'Open', match: { operation: 'getPet' }, response: { status: 200, body: pet(902, 'open') } },
], { catalogue: { generate: { count: 5, seed: 1 } } }));
folder.write('broken.yaml', { ...scenarioWith('broken', [{ match: { operation: 'getPet' }, response: { status: 500, body: { code: 'x', message: 'y', status: 500 } } }]), description: 'a broken one' });
folder.write('misnamed.yaml', scenarioWith('other-name', []));
// Slow to build (faker, 20,000 animals), so activations overlap it.
folder.write('big.yaml', scenarioWith('big', [], { catalogue: { generate: { count: 20000, seed: 2 } } }));

describe('the admin API', () => {
  const mock = useMock({ scenario: 'plain', scenariosDir: folder.dir });

  it('GET /__mock/health: ok, the active scenario and the catalogue size, without a key', async () => {
    const res = await mock.admin('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    // Unlike the API's, the admin API's CORS never allows any origin (steps/admin-guard/).
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.json).toMatchObject({ status: 'ok', store: mock.store.kind, scenario: 'plain', pets: 30, session: null });
  });

  it('GET /__mock/scenarios: every file, valid or not with its errors, and which is active', async () => {
    const res = await mock.admin('/scenarios');
    expect(res.status).toBe(200);
    expect(res.json.active).toBe('plain');
    const byName: Record<string, any> = Object.fromEntries((res.json.scenarios as Array<{ name: string }>).map((s) => [s.name, s]));
    expect(Object.keys(byName)).toEqual(['big', 'broken', 'journal', 'misnamed', 'plain', 'stubbed']);
    expect(byName.plain).toEqual({ name: 'plain', description: 'test scenario plain', file: expect.stringMatching(/plain\.yaml$/), valid: true, active: true });
    expect(byName.stubbed).toMatchObject({ valid: true, active: false });
    expect(byName.broken).toMatchObject({ valid: false, active: false, description: 'a broken one' });
    expect(byName.broken.errors).toEqual([expect.stringMatching(/broken\.yaml: \$\.stubs\[0\]\.response\.status 500 is not documented for getPet/)]);
    expect(byName.misnamed.errors).toEqual([expect.stringMatching(/misnamed\.yaml: \$\.name must be the file's name, misnamed \(got other-name\)/)]);
  });

  it('PUT /__mock/scenarios/active: activates a scenario with its own catalogue and stubs', async () => {
    const res = await mock.admin('/scenarios/active', activate('stubbed'));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ active: 'stubbed', description: 'test scenario stubbed', pets: 5 });
    expect((await mock.admin('/health')).json).toMatchObject({ status: 'ok', store: mock.store.kind, scenario: 'stubbed', pets: 5, session: null });
    expect((await mock.authed('/pets?limit=100')).json).toHaveLength(5);
    expect((await mock.authed('/pets?status=pending')).json[0].name).toBe('door');
    expect((await mock.authed('/pets/1')).json.name).toBe('open');
    expect((await mock.admin('/scenarios')).json.active).toBe('stubbed');
  });

  it('POST /__mock/reset: catalogue, state and call counts back to the start', async () => {
    await mock.admin('/scenarios/active', activate('stubbed'));
    const created = await mock.authed('/pets', newPet({ name: 'Extra', categoryId: 1 }));
    expect(created.status).toBe(201);
    await mock.authed('/pets?status=pending');
    expect((await mock.health()).state).toBe('Open');
    expect((await mock.health()).calls).toEqual([1, 0]);
    expect((await mock.health()).pets).toBe(6);

    const res = await mock.admin('/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ active: 'stubbed', pets: 5, state: 'Started' });
    expect((await mock.health()).state).toBe('Started');
    expect((await mock.health()).calls).toEqual([0, 0]);
    expect((await mock.authed(`/pets/${created.json.id}`)).status).toBe(404);
    // The created animal's id is handed out again: the catalogue is as it started.
    expect((await mock.authed('/pets', newPet({ name: 'Again', categoryId: 1 }))).json.id).toBe(created.json.id);
  });

  it('refuses an unknown scenario with 404 naming it; the previous one stays active', async () => {
    await mock.admin('/scenarios/active', activate('plain'));
    const res = await mock.admin('/scenarios/active', activate('flakey'));
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'unknown_scenario', message: expect.stringContaining('unknown scenario "flakey"'), status: 404 });
    expect(res.json.message).toContain('still active: plain');
    expect((await mock.admin('/health')).json.scenario).toBe('plain');
  });

  it.each([
    ['broken', /broken\.yaml: \$\.stubs\[0\]\.response\.status 500 is not documented/],
    ['misnamed', /misnamed\.yaml: \$\.name must be the file's name/],
  ])('refuses the invalid file %s with 400 naming file, path and reason; the previous one stays', async (name, message) => {
    await mock.admin('/scenarios/active', activate('plain'));
    const res = await mock.admin('/scenarios/active', activate(name));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_scenario');
    expect(res.json.message).toMatch(message);
    expect((await mock.admin('/health')).json.scenario).toBe('plain');
  });

  it.each([
    ['not JSON', '{"name": "plain"', 'malformed_json'],
    ['empty', '', 'malformed_json'],
    ['an empty object', '{}', 'invalid_body'],
    ['a number name', '{"name": 3}', 'invalid_body'],
    ['an empty name', '{"name": ""}', 'invalid_body'],
    ['a bare string', '"plain"', 'invalid_body'],
    ['an array', '[{"name": "plain"}]', 'invalid_body'],
    ['null', 'null', 'invalid_body'],
  ])('refuses a body that is %s with 400 %s', async (_what, body, code) => {
    const res = await mock.admin('/scenarios/active', put(body));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code, message: expect.any(String), status: 400 });
  });

  it('keeps an activation that loads when a later one fails: the failure cancels nothing', async () => {
    await mock.admin('/scenarios/active', activate('plain'));
    const [big, nope] = await Promise.all([mock.admin('/scenarios/active', activate('big')), mock.admin('/scenarios/active', activate('nope'))]);
    expect(nope.status).toBe(404);
    expect(big.status).toBe(200);
    expect((await mock.admin('/health')).json).toMatchObject({ scenario: 'big', pets: 20000 });
  });

  it('refuses a path traversal as an unknown scenario, never joined into a path', async () => {
    const res = await mock.admin('/scenarios/active', activate('../scenarios/default'));
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('unknown_scenario');
  });

  it.each([
    ['GET', '/scenarios/active', 'OPTIONS, PUT'],
    ['POST', '/scenarios', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/health', 'GET, HEAD, OPTIONS'],
    ['GET', '/reset', 'OPTIONS, POST'],
    ['PUT', '/journal', 'DELETE, GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const res = await mock.admin(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers an unknown admin path with 404 route_not_found', async () => {
    const res = await mock.admin('/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'route_not_found', status: 404 });
  });
});

describe('the request journal', () => {
  folder.write('journal.yaml', scenarioWith('journal', [
    { id: 'limit-3', match: { operation: 'listPets', query: { limit: { equals: 3 } } }, response: { status: 200, body: [pet(903, 'three')] } },
    { id: 'third-get', match: { operation: 'getPet', calls: { every: 3 } }, fault: { then: { status: 503, retryAfterSeconds: 1 } } },
    { match: { operation: 'getPet' }, requiredState: 'Open', response: { status: 200, body: pet(904, 'open') } },
    { id: 'opener', match: { operation: 'listPets', query: { status: { equals: 'pending' } } }, newState: 'Open', response: { status: 200, body: [] } },
  ]));
  const mock = useMock({ scenario: 'journal', scenariosDir: folder.dir, journalSize: 3 });
  const journal = async () => (await mock.admin('/journal')).json;

  it('says which stub answered, or why none did, one entry per request, newest last', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.authed('/pets?limit=3');
    await mock.authed('/pets?limit=4');
    await mock.authed('/pets/1');
    const { capacity, entries } = await journal();
    expect(capacity).toBe(3);
    // Each entry's details (seq, at, request, response) are checked in journal-details.test.ts.
    expect(entries).toMatchObject([
      { method: 'GET', path: '/v1/pets?limit=3', status: 200, ms: expect.any(Number), operation: 'listPets', scenario: 'journal', stub: 'limit-3' },
      { method: 'GET', path: '/v1/pets?limit=4', status: 200, ms: expect.any(Number), operation: 'listPets', scenario: 'journal', stub: null, unmatched: 'limit-3: match failed: query limit; opener: match failed: query status' },
      { method: 'GET', path: '/v1/pets/1', status: 200, ms: expect.any(Number), operation: 'getPet', scenario: 'journal', stub: null, unmatched: 'third-get: calls: the 1st call is not a multiple of 3; #2: requiredState Open, state is Started' },
    ]);
  });

  it('keeps only the last N entries (N = 3 here), and none of the admin API\'s own requests', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    expect((await journal()).entries).toEqual([]);
    await mock.authed('/pets/1');
    await mock.authed('/pets/1');
    await mock.authed('/pets', newPet({ name: 'Rex', categoryId: 1 }));
    await mock.authed('/pets?limit=500');
    await mock.admin('/health');
    const { entries } = await journal();
    expect(entries.map((e: { method: string; path: string; status: number }) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /v1/pets/1 503', 'POST /v1/pets 201', 'GET /v1/pets?limit=500 400']);
    expect(entries[0]).toMatchObject({ operation: 'getPet', scenario: 'journal', stub: 'third-get' });
    expect(entries[1]).toMatchObject({ operation: 'createPet', stub: null, unmatched: 'no stub for this operation' });
    expect(entries[2]).toMatchObject({ operation: 'listPets', scenario: 'journal', stub: null });
  });

  it('keeps requests without an accepted key out of every session\'s journal, in the anonymous journal (also bounded)', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.admin('/journal/anonymous', { method: 'DELETE' });
    await mock.authed('/pets/1');
    for (const session of [undefined, 'someone']) {
      for (let i = 0; i < 4; i++) await mock.request(`/pets?limit=${i + 1}`, session === undefined ? {} : { headers: { 'x-mock-session': session } });
    }
    expect((await journal()).entries.map((e: { path: string }) => e.path)).toEqual(['/v1/pets/1']);
    expect(await mock.store.find('someone')).toBeUndefined();
    const anonymous = (await mock.admin('/journal/anonymous')).json;
    expect(anonymous.capacity).toBe(3);
    expect(anonymous.entries.map((e: { path: string; status: number }) => `${e.path} ${e.status}`)).toEqual(['/v1/pets?limit=2 401', '/v1/pets?limit=3 401', '/v1/pets?limit=4 401']);
    expect(anonymous.entries[2]).toMatchObject({ operation: 'listPets', stub: null, unmatched: 'answered before the stubs (auth, session or body limit)' });
    expect((await mock.admin('/journal/anonymous', { method: 'DELETE' })).json).toEqual({ capacity: 3, entries: [] });
  });

  it('names the stub state machine: requiredState met after the opener', async () => {
    await mock.admin('/reset', { method: 'POST' });
    await mock.authed('/pets?status=pending');
    expect((await mock.authed('/pets/2')).json.name).toBe('open');
    expect((await journal()).entries.at(-1)).toMatchObject({ path: '/v1/pets/2', stub: '#2' });
  });

  it('hides the values of credential-like query parameters, and cuts long paths to 1,024 characters', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.authed('/pets?limit=2&token=s3cret&api_key=abc&X-Amz-Signature=f00&status=available&passWORD=p');
    await mock.authed(`/pets?limit=1&note=${'a'.repeat(5000)}`);
    const [secret, long] = (await journal()).entries as Array<{ path: string }>;
    expect(secret?.path).toBe('/v1/pets?limit=2&token=REDACTED&api_key=REDACTED&X-Amz-Signature=REDACTED&status=available&passWORD=REDACTED');
    expect(long?.path).toHaveLength(1025);
    expect(long?.path).toBe(`/v1/pets?limit=1&note=${'a'.repeat(1024 - '/v1/pets?limit=1&note='.length)}…`);
  });

  it('leaves out /__mock itself, but records a path that only starts like it (/__mockery), as anonymous', async () => {
    await mock.admin('/journal/anonymous', { method: 'DELETE' });
    const origin = new URL(mock.url).origin;
    // /__mock redirects to the QA console, unrecorded like the rest of the admin API.
    const bare = await fetch(`${origin}/__mock`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/__mock/']);
    const lookalike = await fetch(`${origin}/__mockery`);
    expect([lookalike.status, ((await lookalike.json()) as { code: string }).code]).toEqual([404, 'route_not_found']);
    expect((await mock.admin('/journal/anonymous')).json.entries).toMatchObject([
      { method: 'GET', path: '/__mockery', status: 404, ms: expect.any(Number), operation: null, scenario: null, stub: null, unmatched: 'not a documented operation' },
    ]);
  });

  it('records requests outside the documented operations with no operation', async () => {
    await mock.request('/nowhere');
    await mock.authed('/pets/1', { method: 'DELETE' });
    // Auth comes before routing under /v1, so an unknown path there is 401 without a key.
    expect((await mock.admin('/journal/anonymous')).json.entries.at(-1)).toMatchObject(
      { method: 'GET', path: '/v1/nowhere', status: 401, ms: expect.any(Number), operation: null, scenario: null, stub: null, unmatched: 'not a documented operation' },
    );
    const entries = (await journal()).entries.slice(-1);
    expect(entries).toMatchObject([
      { method: 'DELETE', path: '/v1/pets/1', status: 405, ms: expect.any(Number), operation: null, scenario: null, stub: null, unmatched: 'not a documented operation' },
    ]);
  });
});

describe('the admin document check (test/support/admin-document.ts)', () => {
  const check = adminDocumentChecker();

  it('passes a documented answer and catches a wrong body or an undocumented status', () => {
    expect(check('GET', '/__mock/health', 200, { status: 'ok', store: 'memory', scenario: null, pets: 3, session: null })).toBeUndefined();
    expect(check('GET', '/__mock/health', 200, { status: 'ok', store: 'memory', pets: 3 })).toMatch(/must have required property 'scenario'/);
    expect(check('PUT', '/__mock/scenarios/active', 418, { code: 'x', message: 'y', status: 418 })).toMatch(/status 418 is not documented/);
    expect(check('POST', '/__mock/health', 405, { code: 'method_not_allowed', message: 'm', status: 405 })).toBeUndefined();
    expect(check('POST', '/__mock/health', 405, { message: 'm' })).toMatch(/code/);
  });
});
