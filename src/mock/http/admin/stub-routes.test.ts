import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { loadScenarioFile } from '../../core/scenarios/load-scenario.js';
import { scenarioFolder } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** Session stubs through the admin API and real HTTP, on whichever store the project runs (memory, Redis). */
const inSession = (session: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { 'x-mock-session': session, ...(init.headers as Record<string, string>) } });
const addStub = (stub: unknown, session?: string): RequestInit => {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(stub) };
  return session === undefined ? init : inSession(session, init);
};
const getPet500 = { match: { operation: 'getPet' }, fault: { then: { status: 500 } } };

describe('session stubs: POST, GET, DELETE /__mock/stubs', () => {
  const mock = useMock({ scenario: 'default' });
  const folder = scenarioFolder();

  it('a 500 on getPet for one session alone, first in its journal, until removed', async () => {
    const added = await mock.admin('/stubs', addStub(getPet500, 'qa-one'));
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ session: 'qa-one', stub: { id: 'getpet-500', ...getPet500 } });
    expect(added.headers.get('location')).toBe('/__mock/stubs/getpet-500');

    const hit = await mock.authed('/pets/1', inSession('qa-one'));
    expect(hit.status).toBe(500);
    expect(hit.json).toEqual({ code: 'internal_error', message: expect.stringContaining('(Simulated by the mock: session stub getpet-500.)'), status: 500 });
    // Its other operations, other sessions and the shared default are untouched.
    expect((await mock.authed('/pets', inSession('qa-one'))).status).toBe(200);
    expect((await mock.authed('/pets/1', inSession('qa-two'))).status).toBe(200);
    expect((await mock.authed('/pets/1')).status).toBe(200);

    const journal = await mock.admin('/journal', inSession('qa-one'));
    const entry = (journal.json.entries as Array<{ path: string; status: number; stub: string | null }>).find((e) => e.status === 500);
    expect(entry?.stub).toBe('session stub getpet-500');

    const listed = await mock.admin('/stubs', inSession('qa-one'));
    expect(listed.json).toEqual({ session: 'qa-one', max: 20, stubs: [{ id: 'getpet-500', ...getPet500 }] });
    expect((await mock.admin('/stubs', inSession('qa-two'))).json.stubs).toEqual([]);

    const removed = await mock.admin('/stubs/getpet-500', inSession('qa-one', { method: 'DELETE' }));
    expect(removed.status).toBe(200);
    expect(removed.json.stubs).toEqual([]);
    expect((await mock.authed('/pets/1', inSession('qa-one'))).status).toBe(200);
    const again = await mock.admin('/stubs/getpet-500', inSession('qa-one', { method: 'DELETE' }));
    expect([again.status, again.json.code]).toEqual([404, 'unknown_stub']);
  });

  it('answers with a documented status and body, a delay, malformed JSON, a reset (drop) or a hang', async () => {
    const session = 'qa-kinds';
    const stubs = [
      { id: 'missing', match: { operation: 'listPets', query: { status: { equals: 'sold' } } }, response: { status: 401, body: { code: 'unauthorized', message: 'Revoked.', status: 401 } } },
      { match: { operation: 'listPets', query: { status: { equals: 'pending' } } }, fault: { latency: { fixedMs: 300 } } },
      { match: { operation: 'getPet' }, fault: { then: 'malformed-json' } },
      { match: { operation: 'listPets', query: { status: { equals: 'available' } } }, fault: { then: 'reset' } },
      { match: { operation: 'createPet' }, fault: { then: 'hang' } },
    ];
    const ids = [];
    for (const stub of stubs) {
      const added = await mock.admin('/stubs', addStub(stub, session));
      expect(added.status).toBe(201);
      ids.push(added.json.stub.id);
    }
    expect(ids).toEqual(['missing', 'listpets-delay', 'getpet-malformed-json', 'listpets-reset', 'createpet-hang']);

    const refused = await mock.authed('/pets?status=sold', inSession(session));
    expect([refused.status, refused.json.message]).toEqual([401, 'Revoked.']);
    const started = performance.now();
    const late = await mock.authed('/pets?status=pending', inSession(session));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(late.status).toBe(200);
    // Raw fetch: the fidelity check would rightly call the cut body a broken answer.
    const cut = await fetch(`${mock.url}/pets/1`, inSession(session, { headers: { authorization: `Bearer ${TEST_KEY}` } }));
    expect(cut.status).toBe(200);
    const text = await cut.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
    await expect(fetch(`${mock.url}/pets?status=available`, inSession(session, { headers: { authorization: `Bearer ${TEST_KEY}` } }))).rejects.toThrow('fetch failed');
    const hung = await fetch(`${mock.url}/pets`, inSession(session, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}', signal: AbortSignal.timeout(300) })).catch((e: unknown) => e);
    expect((hung as Error).name).toBe('TimeoutError');
  });

  it('is tried before the active scenario\'s stubs, and after the request\'s own Prefer', async () => {
    const session = 'qa-order';
    expect((await mock.admin('/scenarios/active', inSession(session, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"not-found"}' }))).status).toBe(200);
    expect((await mock.authed('/pets/1', inSession(session))).status).toBe(404);
    await mock.admin('/stubs', addStub({ match: { operation: 'getPet' }, fault: { then: { status: 503, retryAfterSeconds: 7 } } }, session));
    const stubbed = await mock.authed('/pets/1', inSession(session));
    expect([stubbed.status, stubbed.headers.get('retry-after')]).toEqual([503, '7']);
    expect((await mock.authed('/pets/1', inSession(session, { headers: { prefer: 'code=200' } }))).status).toBe(200);
    // The session's, not the scenario's: another activation and a reset keep it.
    expect((await mock.admin('/scenarios/active', inSession(session, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"default"}' }))).status).toBe(200);
    expect((await mock.admin('/reset', inSession(session, { method: 'POST' }))).status).toBe(200);
    expect((await mock.authed('/pets/1', inSession(session))).status).toBe(503);
  });

  it('downloads a stub as a scenario file that loads as written, and answers as the stub did', async () => {
    const session = 'qa-download';
    await mock.admin('/stubs', addStub(getPet500, session));
    const res = await fetch(`${new URL(mock.url).origin}/__mock/stubs/getpet-500/scenario`, inSession(session));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="getpet-500.yaml"');
    const text = await res.text();
    expect(text).toMatch(/^# yaml-language-server: \$schema=\.\/scenario\.schema\.json\nname: getpet-500\n/);
    const file = folder.write('getpet-500.yaml', text);
    const loaded = loadScenarioFile(loadContract(), file);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.value.catalogue).toEqual({ fixture: 'fixtures/pets.json' });
    expect(loaded.value.stubs.map((s) => [s.label, s.operation, s.answer.kind])).toEqual([['getpet-500', 'getPet', 'fault']]);
    const missing = await fetch(`${new URL(mock.url).origin}/__mock/stubs/nope/scenario`, inSession(session));
    expect(missing.status).toBe(404);
  });

  it.each([
    ['not JSON', '{', 400, 'malformed_json', /not well-formed JSON/],
    ['not an object', '[1]', 400, 'invalid_body', /one stub/],
    ['no match', JSON.stringify({ fault: { then: 'hang' } }), 400, 'invalid_body', /match/],
    ['an unknown operation', JSON.stringify({ match: { operation: 'deletePet' }, fault: { then: 'hang' } }), 400, 'invalid_body', /^\$\.match\.operation/],
    ['a status a fault cannot send', JSON.stringify({ match: { operation: 'getPet' }, fault: { then: { status: 418 } } }), 400, 'invalid_body', /\$\.fault\.then/],
    ['an undocumented response status', JSON.stringify({ match: { operation: 'getPet' }, response: { status: 500 } }), 400, 'invalid_body', /\$\.response\.status 500 is not documented for getPet/],
    ['a count', JSON.stringify({ match: { operation: 'getPet', calls: { every: 2 } }, fault: { then: 'hang' } }), 400, 'invalid_body', /\$\.match\.calls: a session stub keeps no count and no state/],
    ['a state', JSON.stringify({ match: { operation: 'getPet' }, newState: 'x', fault: { then: 'hang' } }), 400, 'invalid_body', /\$\.newState/],
    ['a bad id', JSON.stringify({ id: 'Bad Id', ...getPet500 }), 400, 'invalid_body', /\$\.id must be/],
  ])('refuses %s with a clear Error, adding nothing', async (_what, body, status, code, message) => {
    const res = await mock.admin('/stubs', inSession('qa-refused', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ code, status, message: expect.stringMatching(message) });
    expect((await mock.admin('/stubs', inSession('qa-refused'))).json.stubs).toEqual([]);
    // Nor a session of its own left running.
    expect((await mock.admin('/sessions')).json.sessions.map((s: { id: string }) => s.id)).not.toContain('qa-refused');
  });

  it('holds at most 20 stubs a session, then refuses with too_many_stubs; an id is used once', async () => {
    const session = 'qa-full';
    for (let i = 0; i < 20; i++) expect((await mock.admin('/stubs', addStub({ ...getPet500, id: `s-${i}` }, session))).status).toBe(201);
    const full = await mock.admin('/stubs', addStub(getPet500, session));
    expect(full.status).toBe(409);
    expect(full.json).toEqual({ code: 'too_many_stubs', message: expect.stringContaining('holds 20 stubs'), status: 409 });
    await mock.admin('/stubs/s-3', inSession(session, { method: 'DELETE' }));
    const taken = await mock.admin('/stubs', addStub({ ...getPet500, id: 's-4' }, session));
    expect([taken.status, taken.json.message]).toEqual([400, expect.stringContaining('$.id s-4 names a stub the session has already')]);
    expect((await mock.admin('/stubs', addStub(getPet500, session))).status).toBe(201);
  });

  it('refuses a body over 64 KiB with 413, adding nothing', async () => {
    const huge = { match: { operation: 'getPet' }, response: { status: 404, body: { code: 'pet_not_found', message: 'x'.repeat(70 * 1024), status: 404 } } };
    const res = await mock.admin('/stubs', addStub(huge, 'qa-huge'));
    expect([res.status, res.json.code]).toEqual([413, 'payload_too_large']);
    expect((await mock.admin('/stubs', inSession('qa-huge'))).json.stubs).toEqual([]);
  });

  it('refuses a tree of more than 1,024 values or 32 levels within 64 KiB with 400, adding nothing; a page of 100 animals fits', async () => {
    const session = 'qa-shape';
    const emptyObjects = { match: { operation: 'createPet', body: { name: { equals: Array.from({ length: 1100 }, () => ({})) } } }, fault: { then: { status: 500 } } };
    const deepText = JSON.stringify({ match: { operation: 'createPet', body: { name: { equals: 0 } } }, fault: { then: { status: 500 } } }).replace('{"equals":0}', `{"equals":${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
    for (const [what, init] of [['1,100 objects', addStub(emptyObjects, session)], ['20,000 levels', inSession(session, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deepText })]] as const) {
      const res = await mock.admin('/stubs', init);
      expect([what, res.status, res.json]).toEqual([what, 400, { code: 'invalid_body', message: expect.stringMatching(/more than (1024 JSON values|32 deep)/), status: 400 }]);
    }
    expect((await mock.admin('/stubs', inSession(session))).json.stubs).toEqual([]);
    // At the bounds: the stub object is level 1 and value 1; match, body and name's predicate take three levels and values more.
    const nested = (depth: number): unknown => (depth === 0 ? 0 : [nested(depth - 1)]);
    const atDepth = (levels: number) => ({ match: { operation: 'createPet', body: { name: { equals: nested(levels - 4) } } }, fault: { then: { status: 500 } } });
    expect((await mock.admin('/stubs', addStub({ ...atDepth(32), id: 'deep-32' }, session))).status).toBe(201);
    const deep33 = await mock.admin('/stubs', addStub({ ...atDepth(33), id: 'deep-33' }, session));
    expect([deep33.status, deep33.json]).toEqual([400, { code: 'invalid_body', message: expect.stringContaining('more than 32 deep'), status: 400 }]);
    // The stub, its id, match, operation, body, the name's predicate, its array, fault, then and status: 10 values, and 1,014 numbers.
    const values = (n: number) => ({ id: `values-${n}`, match: { operation: 'createPet', body: { name: { equals: Array.from({ length: n }, () => 0) } } }, fault: { then: { status: 500 } } });
    expect((await mock.admin('/stubs', addStub(values(1014), session))).status).toBe(201);
    const wide = await mock.admin('/stubs', addStub(values(1015), session));
    expect([wide.status, wide.json]).toEqual([400, { code: 'invalid_body', message: expect.stringContaining('more than 1024 JSON values'), status: 400 }]);
    for (const id of ['deep-32', 'values-1014']) await mock.admin(`/stubs/${id}`, inSession(session, { method: 'DELETE' }));
    const page = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `animal ${i}`, categoryId: 1, status: 'available' }));
    expect((await mock.admin('/stubs', addStub({ match: { operation: 'listPets' }, response: { status: 200, body: page } }, session))).status).toBe(201);
    expect((await mock.authed('/pets', inSession(session))).json).toEqual(page);
  });

  it('a body `matches` sees no body nested past 512 levels: the stub does not apply, and the operation refuses the body (no 500)', async () => {
    const session = 'qa-deep-request';
    expect((await mock.admin('/stubs', addStub({ match: { operation: 'createPet', body: { extra: { matches: '.*' } } }, fault: { then: { status: 503 } } }, session))).status).toBe(201);
    const depth = 400_000;
    const body = `{"name":"deep","categoryId":1,"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const res = await mock.authed('/pets', inSession(session, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect([res.status, res.json.code]).toEqual([400, 'malformed_json']);
    const shallow = await mock.authed('/pets', inSession(session, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"flat","categoryId":1,"extra":[[1]]}' }));
    expect(shallow.status).toBe(503);
  });

  it('needs a key to add or remove, as every admin write does', async () => {
    const res = await mock.adminAsIs('/stubs', addStub(getPet500, 'qa-keyless'));
    expect(res.status).toBe(401);
    expect((await mock.admin('/stubs', inSession('qa-keyless'))).json.stubs).toEqual([]);
    expect((await mock.adminAsIs('/stubs/x', inSession('qa-keyless', { method: 'DELETE' }))).status).toBe(401);
  });

  it('ends with its session', async () => {
    await mock.admin('/stubs', addStub(getPet500, 'qa-ending'));
    expect((await mock.admin('/sessions/qa-ending', { method: 'DELETE' })).status).toBe(200);
    expect((await mock.admin('/stubs', inSession('qa-ending'))).json.stubs).toEqual([]);
    expect((await mock.authed('/pets/1', inSession('qa-ending'))).status).toBe(200);
  });
});

describe('session stubs with --session-per-key', () => {
  const mock = useMock({ sessionPerKey: true, apiKeys: [TEST_KEY, 'other-key'] });

  it('belong to the key\'s own session: another key cannot see, use or remove them', async () => {
    const added = await mock.admin('/stubs', addStub(getPet500));
    expect(added.status).toBe(201);
    const session = added.json.session as string;
    expect((await mock.authed('/pets/1')).status).toBe(500);
    expect((await mock.request('/pets/1', { headers: { authorization: 'Bearer other-key' } })).status).toBe(200);
    const foreign = await mock.admin('/stubs/getpet-500', inSession(session, { method: 'DELETE', headers: { authorization: 'Bearer other-key' } }));
    expect([foreign.status, foreign.json.code]).toEqual([403, 'session_forbidden']);
  });
});
