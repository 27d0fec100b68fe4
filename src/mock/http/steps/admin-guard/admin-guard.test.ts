import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../../test/support/raw-request.js';
import { TEST_KEY, useMock } from '../../../../../test/support/use-mock.js';

/** The admin API's guard: Origin, Host, and keys, over real HTTP on an ephemeral port. */
const EVIL = 'http://evil.example';
const APP = 'http://localhost:5173';
const ADMIN_KEY = 'admin-secret-789';
const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const preflight = (origin: string, method = 'PUT'): RequestInit => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
});
const keyed = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${key}` } });
const newPet = json('POST', { name: 'Kept', categoryId: 1 });

describe('the admin API, bound to loopback, with the default --cors-origin (*) and no admin key', () => {
  const mock = useMock({ scenario: 'default' });
  const origin = (): string => new URL(mock.url).origin;
  const port = (): string => new URL(mock.url).port;
  const scenario = async (): Promise<string> => (await mock.admin('/health')).json.scenario;

  it('refuses a cross-origin preflight with 403 origin_not_allowed naming --cors-origin, and no CORS headers', async () => {
    const res = await mock.adminAsIs('/scenarios/active', preflight(EVIL));
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 'origin_not_allowed', message: expect.stringContaining('--cors-origin'), status: 403 });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('refuses a cross-origin PUT, even with an accepted key, and changes nothing', async () => {
    const res = await mock.adminAsIs('/scenarios/active', json('PUT', { name: 'sold-out' }, { origin: EVIL, authorization: `Bearer ${TEST_KEY}` }));
    expect([res.status, res.json.code]).toEqual([403, 'origin_not_allowed']);
    expect(await scenario()).toBe('default');
  });

  it('refuses a "simple" cross-origin POST (no preflight: text/plain) before it resets anything', async () => {
    const created = await mock.authed('/pets', newPet);
    expect(created.status).toBe(201);
    const res = await mock.adminAsIs('/reset', { method: 'POST', headers: { origin: EVIL, 'content-type': 'text/plain', authorization: `Bearer ${TEST_KEY}` }, body: '' });
    expect([res.status, res.json.code]).toEqual([403, 'origin_not_allowed']);
    expect((await mock.authed(`/pets/${created.json.id}`)).status).toBe(200);
  });

  it.each([
    ['null (a sandboxed frame or a file: page)', 'null'],
    ['another port of localhost', 'http://localhost:1'],
    ['the https origin of its host', 'https://127.0.0.1'],
  ])('refuses Origin %s, reads included', async (_what, value) => {
    const res = await mock.adminAsIs('/journal', { headers: { origin: value } });
    expect([res.status, res.json.code]).toEqual([403, 'origin_not_allowed']);
  });

  it('quotes a long Origin or Host cut short in its 403, never the whole header', async () => {
    const long = `http://${'a'.repeat(8000)}.example`;
    const origin403 = await mock.adminAsIs('/health', { headers: { origin: long } });
    expect([origin403.status, origin403.json.code]).toEqual([403, 'origin_not_allowed']);
    expect(origin403.json.message.length).toBeLessThan(400);
    const host403 = await rawRequest(`${origin()}/__mock/health`, { host: `${'b'.repeat(8000)}.example` });
    expect([host403.status, host403.json.code]).toEqual([403, 'host_not_allowed']);
    expect(host403.json.message.length).toBeLessThan(500);
  });

  it('lets a same-origin PUT with Origin through (a page served by the mock), with the key', async () => {
    const res = await mock.admin('/scenarios/active', json('PUT', { name: 'sold-out' }, { origin: origin() }));
    expect(res.status).toBe(200);
    expect(await scenario()).toBe('sold-out');
    expect((await mock.admin('/scenarios/active', json('PUT', { name: 'default' }, { origin: origin() }))).status).toBe(200);
  });

  it('gives no CORS headers to a request without Origin, and keeps the API\'s permissive CORS', async () => {
    expect((await mock.admin('/health')).headers.get('access-control-allow-origin')).toBeNull();
    const api = await mock.authed('/pets?limit=1', { headers: { origin: EVIL } });
    expect(api.status).toBe(200);
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    const apiPreflight = await mock.request('/pets', preflight(EVIL, 'POST'));
    expect(apiPreflight.status).toBe(204);
    expect(apiPreflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each(['evil.example', 'evil.example:PORT', 'localhost.evil.example', '127.0.0.1.nip.io:PORT', '192.168.1.10:PORT', '0.0.0.0:PORT'])(
    'refuses Host %s with 403 host_not_allowed saying why (DNS rebinding) and what lifts it',
    async (host) => {
      const res = await rawRequest(`${origin()}/__mock/health`, { host: host.replace('PORT', port()) });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ code: 'host_not_allowed', message: expect.stringContaining('DNS rebinding'), status: 403 });
      expect(res.json.message).toContain('--host');
    },
  );

  it('refuses a rebound page\'s write, though its Origin matches its Host (a "same-origin" request)', async () => {
    const host = `evil.example:${port()}`;
    const res = await rawRequest(`${origin()}/__mock/sessions`, { host, origin: `http://${host}`, authorization: `Bearer ${TEST_KEY}` }, 'DELETE');
    expect([res.status, res.json.code]).toEqual([403, 'host_not_allowed']);
  });

  it('judges an absolute-form target by its authority, as RFC 9112 §3.2.2 says, not by Host', async () => {
    const res = await rawRequest(`${origin()}/__mock/health`, { host: `localhost:${port()}` }, 'GET', undefined, `http://evil.example:${port()}/__mock/health`);
    expect([res.status, res.json.code]).toEqual([403, 'host_not_allowed']);
  });

  it.each(['localhost:PORT', 'LOCALHOST', 'app.localhost:PORT', '127.0.0.1:PORT', '127.4.5.6', '[::1]:PORT'])('accepts Host %s', async (host) => {
    const res = await rawRequest(`${origin()}/__mock/health`, { host: host.replace('PORT', port()) });
    expect(res.status).toBe(200);
  });

  it('checks Host on the admin API only: the API answers any Host', async () => {
    const res = await rawRequest(`${mock.url}/pets?limit=1`, { host: 'evil.example', authorization: `Bearer ${TEST_KEY}` });
    expect(res.status).toBe(200);
  });

  it('keeps reads open without a key', async () => {
    for (const path of ['/health', '/scenarios', '/journal', '/sessions']) expect((await mock.adminAsIs(path)).status).toBe(200);
    expect((await rawRequest(`${origin()}/__mock/health`, {}, 'HEAD')).status).toBe(200);
  });

  it('refuses every keyless or wrongly keyed write with 401 and its challenge, and none changes anything', async () => {
    await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': 'victim' } });
    const created = await mock.authed('/pets', newPet);
    const journal = (await mock.admin('/journal')).json.entries.length;
    const writes: Array<[string, RequestInit]> = [
      ['/sessions', { method: 'DELETE' }],
      ['/sessions/victim', { method: 'DELETE' }],
      ['/scenarios/active', json('PUT', { name: 'sold-out' })],
      ['/scenarios/active', json('PUT', { name: 'sold-out' }, { 'x-mock-session': 'intruder' })],
      ['/reset', { method: 'POST' }],
      ['/scenarios/default/reset', { method: 'POST' }],
      ['/journal', { method: 'DELETE' }],
    ];
    for (const [path, init] of writes) {
      for (const credentials of [{}, { authorization: 'Bearer not-a-key' }] as Array<Record<string, string>>) {
        const res = await mock.adminAsIs(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...credentials } });
        expect([path, res.status, res.json.code]).toEqual([path, 401, 'unauthorized']);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="animal-store"');
        expect(res.json.message).toContain('--admin-key');
      }
    }
    expect(await mock.store.find('victim')).toBeDefined();
    expect(await mock.store.find('intruder')).toBeUndefined();
    expect(await scenario()).toBe('default');
    expect((await mock.authed(`/pets/${created.json.id}`)).status).toBe(200);
    expect((await mock.admin('/journal')).json.entries.length).toBeGreaterThanOrEqual(journal);
  });

  it('refuses a keyless write 401 before routing: another method on a read-only path too', async () => {
    const res = await mock.adminAsIs('/health', { method: 'DELETE' });
    expect([res.status, res.json.code]).toEqual([401, 'unauthorized']);
  });

  it('refuses two Authorization headers on a write, whichever comes first', async () => {
    const res = await rawRequest(`${origin()}/__mock/reset`, { authorization: [`Bearer ${TEST_KEY}`, 'Bearer other'] }, 'POST');
    expect(res.status).toBe(401);
  });
});

describe('the admin API with --cors-origin naming a frontend', () => {
  const mock = useMock({ scenario: 'default', corsOrigins: [APP, 'null'] });

  it('answers that origin\'s preflight with its own CORS headers, never *', async () => {
    const res = await mock.adminAsIs('/scenarios/active', preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('authorization');
  });

  // As on the API (cors.test.ts): a browser must never be told a method is allowed that the route then answers 405.
  it.each([
    ['/health', 'GET, HEAD, OPTIONS'],
    ['/scenarios/active', 'OPTIONS, PUT'],
    ['/scenarios/flaky/reset', 'OPTIONS, POST'],
    ['/journal', 'DELETE, GET, HEAD, OPTIONS'],
    ['/sessions/anyone', 'DELETE, OPTIONS'],
    ['/', 'GET, HEAD, OPTIONS'],
    ['/console/console.js', 'GET, HEAD, OPTIONS'],
  ])('lists in a preflight to %s only what it serves, %s, as its 405 says in Allow', async (path, listed) => {
    const res = await mock.adminAsIs(path, preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe(listed);
    expect(res.headers.get('allow')).toBe(listed);
    const other = listed.includes('PATCH') ? 'TRACE' : 'PATCH';
    const refused = await mock.admin(path, { method: other });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe(listed);
  });

  it('lists OPTIONS alone for a path with no admin route, and says so in Allow with no Origin too', async () => {
    expect((await mock.adminAsIs('/nothing-here', preflight(APP))).headers.get('access-control-allow-methods')).toBe('OPTIONS');
    expect((await mock.adminAsIs('/health', { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('lets that origin activate a scenario with a key, and read the answer (ACAO)', async () => {
    const res = await mock.admin('/scenarios/active', json('PUT', { name: 'sold-out' }, { origin: APP }));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect((await mock.admin('/health')).json.scenario).toBe('sold-out');
  });

  it('lets that origin read the 401 of a keyless write (CORS headers on refusals too)', async () => {
    const res = await mock.adminAsIs('/reset', { method: 'POST', headers: { origin: APP } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('still refuses other origins, and Origin null though --cors-origin names it', async () => {
    for (const value of [EVIL, 'http://localhost:5174', 'null']) {
      const res = await mock.adminAsIs('/scenarios/active', preflight(value));
      expect([value, res.status]).toEqual([value, 403]);
    }
  });
});

describe('the admin API and Fetch Metadata (Sec-Fetch-Mode, Sec-Fetch-Site)', () => {
  const mock = useMock({ scenario: 'default', corsOrigins: [APP] });
  const origin = (): string => new URL(mock.url).origin;

  it.each([
    ['a foreign page\'s no-cors GET (no Origin: an <img> or fetch mode no-cors)', '/journal', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }, 'no-cors'],
    ['its no-cors hold on the journal stream', '/journal/stream', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'cross-site' }, 'no-cors'],
    ['a same-site page\'s no-cors GET (another port of localhost)', '/journal', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'same-site' }, 'no-cors'],
    ['a cross-site navigation (a link on another site)', '/journal', { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'cross-site' }, 'cross-site'],
  ])('refuses %s with 403 origin_not_allowed, saying which header', async (_what, path, headers, named) => {
    // node:http, as fetch sets Sec-Fetch-Mode itself.
    const res = await rawRequest(`${origin()}/__mock${path}`, headers);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 'origin_not_allowed', message: expect.stringContaining(named), status: 403 });
  });

  it('lets the mock\'s own pages, an origin --cors-origin names, and clients without these headers (curl) in', async () => {
    const journal = (headers: Record<string, string>) => rawRequest(`${origin()}/__mock/journal`, headers);
    const own = await journal({ 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin', origin: origin() });
    const named = await journal({ 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site', origin: APP });
    const typed = await journal({ 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' });
    const plain = await journal({});
    expect([own.status, named.status, typed.status, plain.status]).toEqual([200, 200, 200, 200]);
  });

  it('serves the console\'s stylesheet, which a page fetches no-cors', async () => {
    const status = await new Promise((resolve, reject) => {
      const headers = { 'sec-fetch-mode': 'no-cors', 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'style' };
      get(`${origin()}/__mock/console/console.css`, { headers }, (res) => resolve(res.resume().statusCode)).on('error', reject);
    });
    expect(status).toBe(200);
  });
});

describe('the admin API with --admin-key', () => {
  const mock = useMock({ scenario: 'default', adminKey: ADMIN_KEY });

  it.each([
    ['no key', {}],
    ['a wrong key', { authorization: 'Bearer wrong' }],
    ['an API key', { authorization: `Bearer ${TEST_KEY}` }],
    ['the admin key under another scheme', { authorization: `Basic ${ADMIN_KEY}` }],
  ])('refuses a read with %s: 401 and the admin realm', async (_what, headers) => {
    const res = await mock.adminAsIs('/health', { headers });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ code: 'unauthorized', message: expect.stringContaining('--admin-key'), status: 401 });
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="animal-store-mock admin"');
  });

  it('accepts the admin key on reads and writes', async () => {
    expect((await mock.adminAsIs('/health', keyed(ADMIN_KEY))).json).toMatchObject({ status: 'ok', scenario: 'default' });
    expect((await mock.adminAsIs('/scenarios/active', keyed(ADMIN_KEY, json('PUT', { name: 'sold-out' })))).status).toBe(200);
    expect((await mock.admin('/health')).json.scenario).toBe('sold-out');
    expect((await mock.admin('/scenarios/active', json('PUT', { name: 'default' }))).status).toBe(200);
  });

  it('takes the admin key, not an API key, to change state: ending every session needs it', async () => {
    await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': 'kept' } });
    const refused = await mock.adminAsIs('/sessions', keyed(TEST_KEY, { method: 'DELETE' }));
    expect(refused.status).toBe(401);
    expect(await mock.store.find('kept')).toBeDefined();
    expect((await mock.admin('/sessions', { method: 'DELETE' })).json.ended).toBeGreaterThanOrEqual(1);
    expect(await mock.store.find('kept')).toBeUndefined();
  });

  it('answers a preflight without the key (a preflight carries none)', async () => {
    const res = await mock.adminAsIs('/health', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
  });

  it('is no API key', async () => {
    expect((await mock.request('/pets?limit=1', keyed(ADMIN_KEY))).status).toBe(401);
  });
});

describe('the admin API with --admin-key and --session-per-key', () => {
  const mock = useMock({ scenario: 'default', adminKey: ADMIN_KEY, sessionPerKey: true });

  it('lets the admin key address the shared default, and a key\'s session by X-Mock-Session', async () => {
    const created = await mock.authed('/pets', newPet);
    const session = created.headers.get('x-mock-session') as string;
    expect(session).toMatch(/^key-/);
    const shared = await mock.admin('/health');
    expect([shared.status, shared.json.session]).toEqual([200, null]);
    const own = await mock.admin('/health', { headers: { 'x-mock-session': session } });
    expect(own.json).toMatchObject({ session, pets: shared.json.pets + 1 });
  });

  it('lets the admin key list and end every key\'s sessions, which a key could not', async () => {
    const session = (await mock.authed('/pets?limit=1')).headers.get('x-mock-session') as string;
    expect((await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': 'named-by-key' } })).status).toBe(200);
    const listed = (await mock.admin('/sessions')).json.sessions.map((s: { id: string }) => s.id);
    expect(listed).toEqual(expect.arrayContaining([session, 'named-by-key']));
    expect((await mock.admin('/sessions/named-by-key', { method: 'DELETE' })).json).toEqual({ ended: 1 });
    expect((await mock.admin('/sessions', { method: 'DELETE' })).json.ended).toBeGreaterThanOrEqual(1);
    expect((await mock.admin('/sessions')).json.sessions).toEqual([]);
  });
});

describe('the admin API bound to all addresses (--host 0.0.0.0)', () => {
  const mock = useMock({ scenario: 'default', host: '0.0.0.0' });

  it('checks no Host there (names the mock cannot know reach it), but still Origin and the write key', async () => {
    const port = new URL(mock.url).port;
    const base = `http://127.0.0.1:${port}/__mock`;
    expect((await rawRequest(`${base}/health`, { host: `mock.internal:${port}` })).status).toBe(200);
    expect((await rawRequest(`${base}/health`, { origin: EVIL })).status).toBe(403);
    expect((await rawRequest(`${base}/reset`, {}, 'POST')).status).toBe(401);
  });
});
