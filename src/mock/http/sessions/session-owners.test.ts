import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** With --session-per-key every session belongs to the key that opened it, over real HTTP. */
type Pet = { name: string };
const as = (session: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { 'x-mock-session': session, ...(init.headers as Record<string, string>) } });
const create = (session: string | undefined, name: string): RequestInit => {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) };
  return session === undefined ? init : as(session, init);
};
const activate = (name: string, session: string): RequestInit => as(session, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
const names = (pets: Pet[]) => pets.map((p) => p.name);
const OTHER = 'other-key-789';
const withKey = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } });
const forbidden = (res: { status: number; json: any }) => {
  expect(res.status).toBe(403);
  expect(res.json).toMatchObject({ code: 'session_forbidden', status: 403 });
};

describe('--session-per-key: a key\'s sessions are seen, used, reset and ended only with that key', () => {
  const mock = useMock({ scenario: 'default', apiKeys: [TEST_KEY, OTHER], sessionPerKey: true });

  it('refuses another key, or no key, naming a key\'s session by its id', async () => {
    const created = await mock.request('/pets', withKey(TEST_KEY, create(undefined, 'Private')));
    const id = created.headers.get('x-mock-session') as string;
    forbidden(await mock.request('/pets?limit=100', withKey(OTHER, as(id))));
    forbidden(await mock.request(`/pets/${created.json.id}`, withKey(OTHER, as(id))));
    forbidden(await mock.request('/pets', withKey(OTHER, as(id, create(undefined, 'Planted')))));
    forbidden(await mock.admin('/health', as(id)));
    forbidden(await mock.admin('/journal', as(id)));
    forbidden(await mock.admin('/reset', withKey(OTHER, as(id, { method: 'POST' }))));
    forbidden(await mock.admin('/scenarios/active', withKey(OTHER, activate('empty-catalogue', id))));
    forbidden(await mock.admin(`/sessions/${id}`, withKey(OTHER, { method: 'DELETE' })));
    // Untouched: the owner still sees its animal and no planted one, in its own scenario.
    const own = await mock.request('/pets?limit=100', withKey(TEST_KEY));
    expect(names(own.json)).toContain('Private');
    expect(names(own.json)).not.toContain('Planted');
    expect((await mock.admin('/health', withKey(TEST_KEY))).json).toMatchObject({ scenario: 'default', session: id });
  });

  it('refuses a key naming another key\'s session while it is not running, so nobody can take it first', async () => {
    // OTHER learns its id, then ends its session: the id names no running session now.
    const otherId = (await mock.request('/pets?limit=1', withKey(OTHER))).headers.get('x-mock-session') as string;
    expect((await mock.admin(`/sessions/${otherId}`, withKey(OTHER, { method: 'DELETE' }))).status).toBe(200);
    forbidden(await mock.request('/pets', withKey(TEST_KEY, as(otherId, create(undefined, 'Squatter')))));
    expect(await mock.store.find(otherId)).toBeUndefined();
    const back = await mock.request('/pets?limit=100', withKey(OTHER));
    expect(back.status).toBe(200);
    expect(names(back.json)).not.toContain('Squatter');
  });

  it('makes a session named with X-Mock-Session the opening key\'s', async () => {
    expect((await mock.request('/pets', withKey(TEST_KEY, as('team-a', create(undefined, 'Team-A'))))).status).toBe(201);
    forbidden(await mock.request('/pets?limit=100', withKey(OTHER, as('team-a'))));
    forbidden(await mock.admin('/journal', as('team-a')));
    expect(names((await mock.request('/pets?limit=100', withKey(TEST_KEY, as('team-a')))).json)).toContain('Team-A');
  });

  it('lists and ends only the caller\'s own sessions; without a key, none', async () => {
    await mock.request('/pets', withKey(TEST_KEY, as('mine-1')));
    await mock.request('/pets', withKey(OTHER, as('theirs-1')));
    const mine = (await mock.admin('/sessions', withKey(TEST_KEY))).json.sessions.map((s: { id: string }) => s.id);
    expect(mine).toContain('mine-1');
    expect(mine).not.toContain('theirs-1');
    expect((await mock.admin('/sessions')).json.sessions).toEqual([]);
    const ended = await mock.admin('/sessions', withKey(OTHER, { method: 'DELETE' }));
    expect(ended.json.ended).toBeGreaterThan(0);
    expect(await mock.store.find('mine-1')).toBeDefined();
    expect(await mock.store.find('theirs-1')).toBeUndefined();
  });

  it('journals a refused naming as anonymous, not in the shared default\'s journal', async () => {
    const id = (await mock.request('/pets?limit=1', withKey(TEST_KEY))).headers.get('x-mock-session') as string;
    await mock.admin('/journal', { method: 'DELETE' });
    forbidden(await mock.request('/pets?limit=7', withKey(OTHER, as(id))));
    expect((await mock.admin('/journal')).json.entries).toEqual([]);
    expect((await mock.admin('/journal/anonymous')).json.entries.at(-1)).toMatchObject({ path: '/v1/pets?limit=7', status: 403 });
  });
});

describe('--session-per-key with --admin-key: a key session the admin opens is still that key\'s', () => {
  const ADMIN = 'admin-key-000';
  const mock = useMock({ scenario: 'default', apiKeys: [TEST_KEY, OTHER], sessionPerKey: true, adminKey: ADMIN });

  it('gives a key session opened by an activation to its key, not to whoever names it', async () => {
    const id = (await mock.request('/pets?limit=1', withKey(TEST_KEY))).headers.get('x-mock-session') as string;
    expect((await mock.admin(`/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await mock.admin('/scenarios/active', activate('empty-catalogue', id))).status).toBe(200);
    forbidden(await mock.request('/pets', withKey(OTHER, as(id, create(undefined, 'Planted')))));
    const own = await mock.request('/pets?limit=100', withKey(TEST_KEY));
    expect(own.headers.get('x-mock-session')).toBe(id);
    expect(names(own.json)).toEqual([]);
  });
});
