import { describe, expect, it, vi } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** Isolation per client (X-Mock-Session, or the key), over real HTTP on an ephemeral port. */
type Pet = { id: number; name: string; categoryId: number; status?: string };
const as = (session: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { 'x-mock-session': session, ...(init.headers as Record<string, string>) } });
const create = (session: string | undefined, name: string): RequestInit => {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) };
  return session === undefined ? init : as(session, init);
};
const activate = (name: string, session?: string): RequestInit => {
  const init: RequestInit = { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) };
  return session === undefined ? init : as(session, init);
};
const names = (pets: Pet[]) => pets.map((p) => p.name);

describe('sessions: each X-Mock-Session has its own store, scenario and journal', () => {
  const mock = useMock({ scenario: 'default' });
  const all = async (session?: string): Promise<Pet[]> => (await mock.authed('/pets?limit=100', session === undefined ? {} : as(session))).json;

  it('keeps what one session creates out of the others and the shared default', async () => {
    const before = await all();
    const alice = await mock.authed('/pets', create('alice', 'Only-Alice'));
    const bob = await mock.authed('/pets', create('bob', 'Only-Bob'));
    expect(alice.status).toBe(201);
    expect(bob.status).toBe(201);
    // Each session's catalogue is its own copy: both get the id after the catalogue's last.
    expect(alice.json.id).toBe(before.at(-1)!.id + 1);
    expect(bob.json.id).toBe(alice.json.id);
    expect(names(await all('alice'))).toContain('Only-Alice');
    expect(names(await all('alice'))).not.toContain('Only-Bob');
    expect(names(await all('bob'))).not.toContain('Only-Alice');
    expect(await all()).toEqual(before);
    expect((await mock.authed(`/pets/${alice.json.id}`, as('alice'))).json.name).toBe('Only-Alice');
    expect((await mock.authed(`/pets/${alice.json.id}`)).status).toBe(404);
  });

  it('gives each session its own active scenario through the admin API', async () => {
    const res = await mock.admin('/scenarios/active', activate('empty-catalogue', 'carol'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-session')).toBe('carol');
    expect((await mock.admin('/health', as('carol'))).json).toMatchObject({ status: 'ok', store: mock.store.kind, scenario: 'empty-catalogue', pets: 0, session: 'carol' });
    expect(await all('carol')).toEqual([]);
    expect((await mock.admin('/health')).json).toMatchObject({ scenario: 'default', session: null });
    expect((await all('dave')).length).toBeGreaterThan(20);
    expect((await mock.admin('/scenarios', as('carol'))).json.active).toBe('empty-catalogue');
    expect((await mock.admin('/scenarios')).json.active).toBe('default');
  });

  it('starts a new session as the mock started, whatever the shared default became', async () => {
    expect((await mock.admin('/scenarios/active', activate('sold-out'))).status).toBe(200);
    try {
      expect((await all()).every((p) => p.status === 'sold')).toBe(true);
      const fresh = await all('erin');
      expect(fresh.some((p) => p.status === 'available')).toBe(true);
      expect((await mock.admin('/health', as('erin'))).json.scenario).toBe('default');
    } finally {
      await mock.admin('/scenarios/active', activate('default'));
    }
  });

  it('keeps a journal per session; the shared one sees none of a session\'s requests', async () => {
    await mock.admin('/journal', { method: 'DELETE' });
    await mock.admin('/journal', as('frank', { method: 'DELETE' }));
    await mock.authed('/pets?limit=1', as('frank'));
    await mock.request('/pets?limit=2', as('frank'));
    await mock.authed('/pets?limit=3');
    const frank = (await mock.admin('/journal', as('frank'))).json.entries;
    expect(frank.map((e: { path: string; status: number }) => `${e.path} ${e.status}`)).toEqual(['/v1/pets?limit=1 200']);
    // A request without a key goes to the anonymous journal, whatever session it names.
    const shared = (await mock.admin('/journal')).json.entries;
    expect(shared.map((e: { path: string; status: number }) => `${e.path} ${e.status}`)).toEqual(['/v1/pets?limit=3 200']);
    const anonymous = (await mock.admin('/journal/anonymous')).json.entries;
    expect(anonymous.map((e: { path: string; status: number }) => `${e.path} ${e.status}`)).toContain('/v1/pets?limit=2 401');
  });

  it('names its session on every answer, and lets browsers send and read the header (CORS)', async () => {
    const res = await mock.authed('/pets/1', as('gina', { headers: { origin: 'http://localhost:5173', 'x-mock-session': 'gina' } }));
    expect(res.headers.get('x-mock-session')).toBe('gina');
    expect((res.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('x-mock-session');
    expect((await mock.authed('/pets/1')).headers.get('x-mock-session')).toBeNull();
    const preflight = await mock.request('/pets', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-mock-session' },
    });
    expect(preflight.status).toBe(204);
    expect((preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('x-mock-session');
  });

  it('names the session in the request\'s log line, and none without one', async () => {
    await mock.authed('/pets?limit=2', as('logged'));
    await mock.authed('/pets?limit=3');
    const line = (path: string) => mock.logs.find((entry) => entry.path === '/v1/pets' && entry.msg === `GET /v1/pets 200 ${entry.ms}ms${path}`);
    expect(line(' [session logged]')).toMatchObject({ session: 'logged', status: 200 });
    expect(line('')).not.toHaveProperty('session');
  });

  it('serves parallel clients without mixing them up', async () => {
    const clients = Array.from({ length: 12 }, (_, i) => `parallel-${i}`);
    await Promise.all(clients.map(async (client) => {
      for (let n = 0; n < 4; n++) expect((await mock.authed('/pets', create(client, `${client}-pet-${n}`))).status).toBe(201);
    }));
    for (const client of clients) {
      const own = names(await all(client)).filter((name) => name.startsWith('parallel-'));
      expect(own).toEqual([0, 1, 2, 3].map((n) => `${client}-pet-${n}`));
    }
  });

  it.each([
    ['a space', 'two words'],
    ['a slash', 'a/b'],
    ['a quote', 'it"s'],
    ['non-ASCII letters', 'séance'],
    ['129 characters', 'x'.repeat(129)],
    ['nothing', ''],
    ['a lone dot', '.'],
    ['two dots alone', '..'],
    ['a comma (two headers joined)', 'a, b'],
  ])('refuses a session id with %s: 400 invalid_session, on the API and the admin API', async (_what, id) => {
    const headers = new Headers({ authorization: `Bearer ${TEST_KEY}` });
    // fetch refuses non-Latin-1 header values, so those go as their UTF-8 bytes, as a raw client would send them.
    headers.set('x-mock-session', Buffer.from(id, 'utf8').toString('latin1'));
    const api = await mock.request('/pets', { headers });
    expect(api.status).toBe(400);
    expect(api.json).toMatchObject({ code: 'invalid_session', status: 400, message: expect.stringContaining('is not a session id') });
    const admin = await mock.admin('/health', { headers });
    expect(admin.status).toBe(400);
    expect(admin.json.code).toBe('invalid_session');
  });

  it('still answers a bad key 401 before a bad session id', async () => {
    const res = await mock.request('/pets', { headers: { authorization: 'Bearer wrong', 'x-mock-session': 'bad id' } });
    expect(res.status).toBe(401);
  });

  it('starts a session from the admin API only by activating: reading it keeps nothing', async () => {
    const health = await mock.admin('/health', as('just-looking'));
    expect(health.json).toMatchObject({ status: 'ok', store: mock.store.kind, scenario: 'default', pets: 30, session: 'just-looking' });
    expect((await mock.admin('/journal', as('just-looking'))).json.entries).toEqual([]);
    expect((await mock.admin('/reset', as('just-looking', { method: 'POST' }))).status).toBe(200);
    expect(await mock.store.find('just-looking')).toBeUndefined();
    expect((await mock.admin('/sessions/just-looking', as('just-looking', { method: 'DELETE' }))).status).toBe(404);
    expect((await mock.admin('/scenarios/active', activate('sold-out', 'just-looking'))).status).toBe(200);
    expect(await mock.store.find('just-looking')).toBeDefined();
  });

  it('ends the session an activation started when the activation is refused', async () => {
    const res = await mock.admin('/scenarios/active', activate('nope', 'refused-start'));
    expect(res.status).toBe(404);
    expect(await mock.store.find('refused-start')).toBeUndefined();
  });

  it('starts no session for a request with a bad key', async () => {
    await mock.request('/pets', { headers: { 'x-mock-session': 'never-authorised' } });
    expect(await mock.store.find('never-authorised')).toBeUndefined();
    expect((await mock.admin('/sessions')).json.sessions.map((s: { id: string }) => s.id)).not.toContain('never-authorised');
  });
});

describe('sessions: the admin API lists and ends them', () => {
  const mock = useMock({ scenario: 'default' });

  it('lists the running sessions, least recently used first, with the limits, without touching them', async () => {
    await mock.authed('/pets', as('one'));
    await mock.authed('/pets', create('two', 'Two'));
    await mock.authed('/pets', as('one'));
    // Admin reads do not make a session more recent.
    await mock.admin('/health', as('two'));
    await mock.admin('/journal', as('two'));
    const res = await mock.admin('/sessions');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ maxSessions: 100, idleSeconds: 1800 });
    expect(res.json.sessions).toEqual([
      { id: 'two', scenario: 'default', pets: 31, idleSeconds: expect.any(Number), journal: 1 },
      { id: 'one', scenario: 'default', pets: 30, idleSeconds: expect.any(Number), journal: 2 },
    ]);
  });

  it('ends one session (its next request starts it afresh), and 404s an unknown one', async () => {
    expect((await mock.authed('/pets?limit=100', as('two'))).json).toHaveLength(31);
    const ended = await mock.admin('/sessions/two', { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(ended.json).toEqual({ ended: 1 });
    expect((await mock.authed('/pets?limit=100', as('two'))).json).toHaveLength(30);
    const unknown = await mock.admin('/sessions/nobody', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'unknown_session', message: expect.stringContaining('"nobody"') });
  });

  it('ends every session at once; the shared default stays as it is', async () => {
    await mock.authed('/pets', create(undefined, 'Shared-Kept'));
    const res = await mock.admin('/sessions', { method: 'DELETE' });
    expect(res.json.ended).toBeGreaterThanOrEqual(2);
    expect((await mock.admin('/sessions')).json.sessions).toEqual([]);
    expect(names((await mock.authed('/pets?limit=100')).json)).toContain('Shared-Kept');
  });
});

const ids = async (mock: ReturnType<typeof useMock>): Promise<string[]> => (await mock.admin('/sessions')).json.sessions.map((s: { id: string }) => s.id);

describe('sessions are bounded in number (--max-sessions 2), and one in use is never ended to make room', () => {
  const mock = useMock({ scenario: 'default', maxSessions: 2 });

  it('refuses a new session 503 with Retry-After while every running one was used in the last minute, and keeps theirs', async () => {
    await mock.authed('/pets', create('busy-1', 'Kept-1'));
    await mock.authed('/pets', create('busy-2', 'Kept-2'));
    for (const intruder of ['x1', 'x2', 'x3']) {
      const refused = await mock.authed('/pets', as(intruder));
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({ code: 'too_many_sessions', status: 503 });
      expect(refused.json.message).toContain('--max-sessions');
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
    }
    // Activating a scenario in a new session is refused the same way, and starts nothing.
    const activation = await mock.admin('/scenarios/active', activate('empty-catalogue', 'x4'));
    expect(activation.status).toBe(503);
    expect(activation.json.code).toBe('too_many_sessions');
    expect(await ids(mock)).toEqual(['busy-1', 'busy-2']);
    expect(names((await mock.authed('/pets?limit=100', as('busy-1'))).json)).toContain('Kept-1');
    expect(names((await mock.authed('/pets?limit=100', as('busy-2'))).json)).toContain('Kept-2');
    // Ending one makes room at once.
    expect((await mock.admin('/sessions/busy-1', { method: 'DELETE' })).status).toBe(200);
    expect((await mock.authed('/pets', as('x1'))).status).toBe(200);
  });
});

describe('sessions past their protection (here 0.2 s) are ended to make room, least recently used first', () => {
  const mock = useMock({ scenario: 'default', maxSessions: 2, sessionProtectMs: 200 });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

  it('ends the least recently used to make room, and says so in the log', async () => {
    await mock.authed('/pets', create('a', 'From-A'));
    await mock.authed('/pets', as('b'));
    // a is used again, so b is now the least recently used.
    await mock.authed('/pets', as('a'));
    await settle();
    await mock.authed('/pets', as('c'));
    expect(await ids(mock)).toEqual(['a', 'c']);
    expect(mock.logs.some((line) => line.msg === 'session b ended: the least recently used, to make room')).toBe(true);
    expect(names((await mock.authed('/pets?limit=100', as('a'))).json)).toContain('From-A');
    // That read made a the most recent again (c, a); d pushes c out, e then a: a's data is gone, and it starts afresh when it comes back.
    await settle();
    await mock.authed('/pets', as('d'));
    expect(await ids(mock)).toEqual(['a', 'd']);
    await settle();
    await mock.authed('/pets', as('e'));
    expect(await ids(mock)).toEqual(['d', 'e']);
    await settle();
    expect(names((await mock.authed('/pets?limit=100', as('a'))).json)).not.toContain('From-A');
    expect((await ids(mock)).length).toBe(2);
  });
});

describe('sessions are bounded in idle time (--session-idle)', () => {
  const mock = useMock({ scenario: 'default', sessionIdleMs: 300 });

  it('ends a session nobody used for that long, even when no request comes', async () => {
    await mock.authed('/pets', create('sleepy', 'Forgotten'));
    expect(await mock.store.find('sleepy')).toBeDefined();
    await vi.waitFor(async () => expect(await mock.store.find('sleepy')).toBeUndefined(), { timeout: 5000, interval: 50 });
    // The memory store's sweep ends it and says so; on Redis its keys expire (a TTL), which no process sees happen.
    if (mock.store.kind === 'memory') expect(mock.logs.some((line) => line.msg === 'session sleepy ended: idle too long')).toBe(true);
    expect(names((await mock.authed('/pets?limit=100', as('sleepy'))).json)).not.toContain('Forgotten');
  });
});

describe('--session-per-key: each API key is its own session without X-Mock-Session', () => {
  const mock = useMock({ scenario: 'default', apiKeys: [TEST_KEY, 'second-key-456'], sessionPerKey: true });
  const withKey = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } });

  it('keeps two keys apart, and never shows a key in a session id', async () => {
    const created = await mock.request('/pets', withKey(TEST_KEY, create(undefined, 'Key-One')));
    expect(created.status).toBe(201);
    const session = created.headers.get('x-mock-session');
    expect(session).toMatch(/^key-[0-9a-f]{16}$/);
    const other = await mock.request('/pets?limit=100', withKey('second-key-456'));
    expect(names(other.json)).not.toContain('Key-One');
    expect(other.headers.get('x-mock-session')).not.toBe(session);
    expect(names((await mock.request('/pets?limit=100', withKey(TEST_KEY))).json)).toContain('Key-One');
    const listed = JSON.stringify((await mock.admin('/sessions')).json);
    expect(listed).not.toContain(TEST_KEY);
    expect(listed).not.toContain('second-key-456');
  });

  it('lets X-Mock-Session win over the key, and the admin API find the key\'s session', async () => {
    await mock.request('/pets', withKey('second-key-456', create(undefined, 'Key-Two')));
    const named = await mock.request('/pets?limit=100', withKey('second-key-456', as('explicit')));
    expect(named.headers.get('x-mock-session')).toBe('explicit');
    expect(names(named.json)).not.toContain('Key-Two');
    const health = await mock.admin('/health', withKey('second-key-456'));
    expect(health.json.session).toMatch(/^key-/);
    const own = await mock.request('/pets?limit=100', withKey('second-key-456'));
    expect(health.json.pets).toBe(own.json.length);
    expect(names(own.json)).toContain('Key-Two');
  });

  it('answers 401 on the admin API for a key that is not accepted, rather than acting on the shared default', async () => {
    const before = (await mock.admin('/sessions')).json.sessions.length;
    const res = await mock.admin('/scenarios/active', withKey('not-a-real-key', activate('empty-catalogue')));
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('unauthorized');
    expect((await mock.admin('/sessions')).json.sessions).toHaveLength(before);
    expect((await mock.admin('/health')).json.scenario).toBe('default');
    expect((await mock.admin('/health')).json.session).toBeNull();
  });
});
