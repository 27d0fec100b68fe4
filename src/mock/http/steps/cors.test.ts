import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** The API's CORS (cors.ts), over real HTTP: credentials for named origins, never with `*`. */
const APP = 'http://localhost:5173';
const OTHER_APP = 'https://shop.example:8443';
const auth = { authorization: `Bearer ${TEST_KEY}` };
const preflight = (origin: string | undefined, method = 'GET'): RequestInit => ({
  method: 'OPTIONS',
  headers: { ...(origin === undefined ? {} : { origin }), 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
});
/** The CORS headers of an answer that say who may read it, and with what. */
const allowing = (res: { headers: Headers }) => ({
  origin: res.headers.get('access-control-allow-origin'),
  credentials: res.headers.get('access-control-allow-credentials'),
  vary: res.headers.get('vary'),
});

describe('CORS with --cors-origin naming origins', () => {
  const mock = useMock({ corsOrigins: [APP, OTHER_APP, 'null'] });

  it('warns in the log, once per origin, when a page on an origin it does not list calls it; its own origin and listed ones are not named', async () => {
    const stray = 'http://localhost:3000';
    const warned = () => mock.logs.filter((line) => line.level === 40 && typeof line.msg === 'string' && line.msg.includes('--cors-origin'));
    for (let i = 0; i < 2; i += 1) expect((await mock.authed('/pets?limit=1', { headers: { ...auth, origin: stray } })).status).toBe(200);
    await mock.authed('/pets?limit=1', { headers: { ...auth, origin: APP } });
    await mock.authed('/pets?limit=1', { headers: { ...auth, origin: new URL(mock.url).origin } });
    expect(warned().map((line) => line.origin)).toEqual([stray]);
    expect(warned()[0]!.msg).toBe(`a page at ${stray} called the mock, but --cors-origin lists only ${APP}, ${OTHER_APP}, null: its browser will not let it read the answers (add it with --cors-origin)`);
  });

  it('names at most 20 such origins, then says once that more came', async () => {
    const named = () => mock.logs.filter((line) => line.level === 40 && typeof line.msg === 'string' && line.msg.includes('--cors-origin'));
    for (let i = 0; i < 25; i += 1) await mock.authed('/pets?limit=1', { headers: { ...auth, origin: `http://made-up-${i}.example` } });
    // Whatever this mock was sent before: 20 origins named, then one line, then nothing.
    expect(named().filter((line) => line.origin !== undefined)).toHaveLength(20);
    expect(named().filter((line) => line.origin === undefined).map((line) => line.msg)).toEqual(['more origins that --cors-origin does not list called the mock; past 20, they are not named']);
    expect(named().at(-1)!.origin).toBeUndefined();
  });

  it.each([APP, OTHER_APP])('reflects %s and allows credentials, on its preflight and on its answers', async (origin) => {
    const before = await mock.request('/pets', preflight(origin));
    expect(before.status).toBe(204);
    expect(allowing(before)).toEqual({ origin, credentials: 'true', vary: 'Origin' });
    const answer = await mock.authed('/pets?limit=1', { headers: { ...auth, origin } });
    expect(answer.status).toBe(200);
    expect(allowing(answer)).toEqual({ origin, credentials: 'true', vary: 'Origin' });
    // A refusal is readable too: a page must see why it was refused.
    const refused = await mock.request('/pets', { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(allowing(refused)).toEqual({ origin, credentials: 'true', vary: 'Origin' });
  });

  it.each([
    ['another origin', 'http://localhost:5174'],
    ['a listed origin in another case', APP.toUpperCase()],
    ['Origin null, though listed (sandboxed frames, file: pages)', 'null'],
    ['no Origin', undefined],
  ])('gives %s neither the origin nor credentials, only Vary: Origin', async (_, origin) => {
    const before = await mock.request('/pets', preflight(origin));
    expect(before.status).toBe(204);
    expect(allowing(before)).toEqual({ origin: null, credentials: null, vary: 'Origin' });
    expect(before.headers.get('access-control-allow-methods')).toBeNull();
    const answer = await mock.authed('/pets?limit=1', { headers: { ...auth, ...(origin === undefined ? {} : { origin }) } });
    expect(answer.status).toBe(200);
    expect(allowing(answer)).toEqual({ origin: null, credentials: null, vary: 'Origin' });
  });
});

describe('CORS with any origin (the default, --cors-origin *)', () => {
  const mock = useMock();

  // The Fetch standard refuses a credentialed answer with Allow-Origin *, and reflecting every origin would let any page read a user's answers.
  it('sends Access-Control-Allow-Origin: * and never allows credentials', async () => {
    const before = await mock.request('/pets', preflight(APP));
    expect(before.status).toBe(204);
    expect(allowing(before)).toEqual({ origin: '*', credentials: null, vary: null });
    const answer = await mock.authed('/pets?limit=1', { headers: { ...auth, origin: APP } });
    expect(answer.status).toBe(200);
    expect(allowing(answer)).toEqual({ origin: '*', credentials: null, vary: null });
  });
});

// A preflight advertising PUT and DELETE on routes that answer them 405 misleads browsers and tools alike.
describe('a preflight lists only the methods its route serves', () => {
  const mock = useMock({ corsOrigins: [APP] });
  const methods = async (path: string) => (await mock.request(path, preflight(APP, 'PUT'))).headers.get('access-control-allow-methods');

  it.each([
    ['/pets', 'GET, HEAD, OPTIONS, POST'],
    ['/pets/1', 'GET, HEAD, OPTIONS'],
    ['/pets/abc', 'GET, HEAD, OPTIONS'],
  ])('%s: %s, as its 405 says in Allow', async (path, listed) => {
    expect(await methods(path)).toBe(listed);
    const refused = await mock.authed(path, { method: 'DELETE' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe(listed);
  });

  // GET, HEAD and POST need no listing (CORS-safelisted methods): a page still reads the 404 or 501 Error body.
  it.each(['/nothing', '/store/orders', '/pets/1/owner'])('%s, where no operation is served: OPTIONS alone', async (path) => {
    expect(await methods(path)).toBe('OPTIONS');
    expect(await mock.request(path, { headers: { ...auth, origin: APP } }).then(allowing)).toEqual({ origin: APP, credentials: 'true', vary: 'Origin' });
  });

  it('outside the API too', async () => {
    const res = await fetch(new URL('/elsewhere', mock.url), preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('OPTIONS');
  });
});
