import { describe, expect, it } from 'vitest';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { useMock } from '../../../../test/support/use-mock.js';

/** `Prefer: scenario=NAME` and resetting one scenario, over real HTTP. */
type Pet = { id: number; name: string };
const prefer = (value: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { prefer: value, ...(init.headers as Record<string, string>) } });
const create = (name: string, value?: string): RequestInit => {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) };
  return value === undefined ? init : prefer(value, init);
};
const names = (pets: Pet[]) => pets.map((p) => p.name);

describe('Prefer: scenario=NAME answers as that scenario would, from its own state', () => {
  const mock = useMock({ scenario: 'default' });

  it('uses the named scenario\'s catalogue for that request only, and says so', async () => {
    const empty = await mock.authed('/pets', prefer('scenario=empty-catalogue'));
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual([]);
    expect(empty.headers.get('preference-applied')).toBe('scenario=empty-catalogue');
    expect((await mock.authed('/pets')).json).toHaveLength(20);
    expect((await mock.admin('/health')).json.scenario).toBe('default');
  });

  it('applies its stubs: not-found gives 404 for an id the active catalogue has', async () => {
    expect((await mock.authed('/pets/1')).status).toBe(200);
    const res = await mock.authed('/pets/1', prefer('scenario=not-found'));
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('pet_not_found');
    // getPet's deprecation signals are still there.
    expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('keeps the scenario\'s own state: what it stores stays in it, and its call counts are its own', async () => {
    const created = await mock.authed('/pets', create('In-Empty', 'scenario=empty-catalogue'));
    expect(created.status).toBe(201);
    expect(created.json.id).toBe(1);
    expect(names((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json)).toEqual(['In-Empty']);
    expect(names((await mock.authed('/pets?limit=100')).json)).not.toContain('In-Empty');
    // flaky fails every third request it sees; the active scenario's requests do not count.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await mock.authed('/pets');
      statuses.push((await mock.authed('/pets', prefer('scenario=flaky'))).status);
    }
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
  });

  it('records the scenario that served each request in the journal', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.authed('/pets/1', prefer('scenario=not-found'));
    await mock.authed('/pets/1');
    const entries = (await mock.admin('/journal')).json.entries;
    expect(entries.map((e: { scenario: string; status: number }) => `${e.scenario} ${e.status}`)).toEqual(['not-found 404', 'default 200']);
  });

  it.each([
    ['scenario=nope', /Prefer: scenario=nope cannot be used: unknown scenario "nope" in .* \(known: .*empty-catalogue.*\)/],
    ['scenario=', /Prefer: scenario= names no scenario/],
    ['scenario', /Prefer: scenario= names no scenario/],
    ['scenario=../scenarios/default', /cannot be used: unknown scenario/],
    ['scenario=flaky, code=200', /scenario=flaky and code=200 contradict each other/],
    ['scenario=flaky, example=empty', /scenario=flaky and example=empty contradict/],
    ['scenario=flaky, dynamic=true', /scenario=flaky and dynamic=true contradict/],
  ])('refuses Prefer: %s with 400 invalid_preference naming it', async (value, message) => {
    const res = await mock.authed('/pets', prefer(value));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'invalid_preference', status: 400, message: expect.stringMatching(message) });
  });

  it('refuses on createPet too, storing nothing in the active catalogue', async () => {
    const before = (await mock.health()).pets;
    const res = await mock.authed('/pets', create('Lost?', 'scenario=nope'));
    expect(res.json.code).toBe('invalid_preference');
    expect((await mock.health()).pets).toBe(before);
  });

  it('shows at most 80 characters of a long scenario name in the message', async () => {
    const res = await mock.authed('/pets', prefer(`scenario=${'x'.repeat(5000)}`));
    expect(res.status).toBe(400);
    expect(res.json.message.length).toBeLessThan(1000);
    expect(res.json.message).toContain(`${'x'.repeat(80)}…`);
  });

  it('allows dynamic=false beside it, which asks for nothing', async () => {
    const res = await mock.authed('/pets', prefer('scenario=empty-catalogue, dynamic=false'));
    expect(res.headers.get('preference-applied')).toBe('scenario=empty-catalogue');
    expect(res.json).toEqual((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json);
    expect(res.json.length).toBeLessThan(20);
  });

  it('answers the active scenario from its own state when named', async () => {
    const created = await mock.authed('/pets', create('Active-Named', 'scenario=default'));
    expect(names((await mock.authed('/pets?limit=100')).json)).toContain('Active-Named');
    expect(created.headers.get('preference-applied')).toBe('scenario=default');
  });
});

describe('Prefer: scenario=NAME within a session', () => {
  const mock = useMock({ scenario: 'default' });
  const as = (session: string, init: RequestInit): RequestInit => ({ ...init, headers: { 'x-mock-session': session, ...(init.headers as Record<string, string>) } });

  it('keeps each session\'s copy of the scenario apart', async () => {
    await mock.authed('/pets', as('left', create('Left-Only', 'scenario=empty-catalogue')));
    expect(names((await mock.authed('/pets', as('left', prefer('scenario=empty-catalogue')))).json)).toEqual(['Left-Only']);
    expect((await mock.authed('/pets', as('right', prefer('scenario=empty-catalogue')))).json).toEqual([]);
    expect((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json).toEqual([]);
  });
});

describe('resetting one scenario, or all of a session\'s', () => {
  const mock = useMock({ scenario: 'default' });

  it('POST /__mock/scenarios/NAME/reset resets that one only', async () => {
    await mock.authed('/pets', create('Empty-1', 'scenario=empty-catalogue'));
    await mock.authed('/pets', create('Active-1'));
    const res = await mock.admin('/scenarios/empty-catalogue/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ scenario: 'empty-catalogue', started: true, pets: 0, state: 'Started' });
    expect((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json).toEqual([]);
    expect(names((await mock.authed('/pets?limit=100')).json)).toContain('Active-1');
  });

  it('resets the active scenario by name, leaving the others', async () => {
    await mock.authed('/pets', create('Empty-2', 'scenario=empty-catalogue'));
    const res = await mock.admin('/scenarios/default/reset', { method: 'POST' });
    expect(res.json).toEqual({ scenario: 'default', started: true, pets: 30, state: 'Started' });
    expect(names((await mock.authed('/pets?limit=100')).json)).not.toContain('Active-1');
    expect(names((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json)).toEqual(['Empty-2']);
  });

  it('resets flaky\'s call count alone', async () => {
    await mock.authed('/pets', create('Empty-Kept', 'scenario=empty-catalogue'));
    await mock.authed('/pets', prefer('scenario=flaky'));
    await mock.authed('/pets', prefer('scenario=flaky'));
    await mock.admin('/scenarios/flaky/reset', { method: 'POST' });
    // Two calls were forgotten: the third failure comes two requests later than it would have.
    expect((await mock.authed('/pets', prefer('scenario=flaky'))).status).toBe(200);
    expect((await mock.authed('/pets', prefer('scenario=flaky'))).status).toBe(200);
    expect((await mock.authed('/pets', prefer('scenario=flaky'))).status).toBe(503);
    expect(names((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json)).toContain('Empty-Kept');
  });

  it('says when the scenario has no state to reset yet, and 404s an unknown one', async () => {
    expect((await mock.admin('/scenarios/slow/reset', { method: 'POST' })).json).toEqual({ scenario: 'slow', started: false, pets: null, state: null });
    const unknown = await mock.admin('/scenarios/nope/reset', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'unknown_scenario', message: expect.stringContaining('"nope"') });
    expect((await mock.admin('/scenarios/flaky/reset', { method: 'GET' })).status).toBe(405);
  });

  it('POST /__mock/reset resets every scenario of the session, the active one staying active', async () => {
    await mock.authed('/pets', create('Empty-3', 'scenario=empty-catalogue'));
    await mock.authed('/pets', create('Active-3'));
    const res = await mock.admin('/reset', { method: 'POST' });
    expect(res.json).toEqual({ active: 'default', pets: 30, state: 'Started' });
    expect((await mock.authed('/pets', prefer('scenario=empty-catalogue'))).json).toEqual([]);
    expect(names((await mock.authed('/pets?limit=100')).json)).not.toContain('Active-3');
  });
});

describe('Prefer: scenario=NAME with a scenario file that is refused', () => {
  const folder = scenarioFolder();
  folder.write('fine.yaml', scenarioWith('fine', []));
  folder.write('broken.yaml', scenarioWith('broken', [{ match: { operation: 'getPet' }, response: { status: 500, body: { code: 'x', message: 'y', status: 500 } } }]));
  const mock = useMock({ scenario: 'fine', scenariosDir: folder.dir });

  it('answers 400 invalid_preference with the file, path and reason', async () => {
    const res = await mock.authed('/pets/1', prefer('scenario=broken'));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_preference');
    expect(res.json.message).toMatch(/Prefer: scenario=broken cannot be used: .*broken\.yaml: \$\.stubs\[0\]\.response\.status 500 is not documented for getPet/);
  });
});
