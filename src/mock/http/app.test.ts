import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { MockStore } from '../core/store/mock-store.js';
import { wrapCatalogues } from '../../../test/support/wrap-catalogues.js';
import { TEST_KEY, useMock } from '../../../test/support/use-mock.js';

const auth = { authorization: `Bearer ${TEST_KEY}` };

describe('routing and errors outside the operations', () => {
  const mock = useMock();

  it.each([
    ['/nothing', 'GET'],
    ['/pets/1/owner', 'GET'],
    ['/pets/', 'GET'],
    ['/v2/pets', 'GET'],
  ])('answers 404 route_not_found for %s under /v1 with a key', async (path, method) => {
    const res = await mock.authed(path, { method });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 'route_not_found', status: 404 });
  });

  it('answers 404 route_not_found outside /v1, without a key', async () => {
    const res = await fetch(new URL('/pets', mock.url));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ code: 'route_not_found', status: 404 });
  });

  it.each([
    ['/pets', 'DELETE', 'GET, HEAD, OPTIONS, POST'],
    ['/pets', 'PUT', 'GET, HEAD, OPTIONS, POST'],
    ['/pets', 'PATCH', 'GET, HEAD, OPTIONS, POST'],
    ['/pets/1', 'POST', 'GET, HEAD, OPTIONS'],
    ['/pets/1', 'DELETE', 'GET, HEAD, OPTIONS'],
  ])('answers 405 with Allow for %s %s', async (path, method, allow) => {
    const res = await mock.authed(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.json).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers 501 not_implemented for the store orders area, after auth', async () => {
    const res = await mock.authed('/store/orders');
    expect(res.status).toBe(501);
    expect(res.json).toMatchObject({ code: 'not_implemented', status: 501 });
    expect((await mock.request('/store/orders')).status).toBe(401);
  });

  it('logs one line per request with method, path, status, duration and the deprecated flag', async () => {
    mock.logs.length = 0;
    await mock.authed('/pets?limit=1');
    await mock.authed('/pets/1');
    await mock.request('/pets');
    const lines = mock.logs.filter((l) => l.level === 30);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200, deprecated: false });
    expect(lines[1]).toMatchObject({ method: 'GET', path: '/v1/pets/1', status: 200, deprecated: true });
    expect(lines[2]).toMatchObject({ method: 'GET', path: '/v1/pets', status: 401, deprecated: false });
    for (const line of lines) expect(line.ms).toEqual(expect.any(Number));
  });
});

describe('CORS, permissive by default', () => {
  const mock = useMock();
  const origin = 'http://localhost:5173';

  it('answers a preflight without a key and allows Authorization and Content-Type', async () => {
    const res = await mock.request('/pets', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it.each([
    ['a success', '/pets', auth, 200, 'GET'],
    ['a 401', '/pets', {}, 401, 'GET'],
    ['a 400', '/pets?limit=0', auth, 400, 'GET'],
    ['a 404', '/pets/999', auth, 404, 'GET'],
    ['a 405', '/pets/1', auth, 405, 'PUT'],
  ])('puts Access-Control-Allow-Origin on %s', async (_, path, headers, status, method) => {
    const res = await mock.request(path, { method, headers: { origin, ...headers } });
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('exposes the deprecation headers to browser code', async () => {
    const res = await mock.authed('/pets/1', { headers: { ...auth, origin } });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of ['deprecation', 'sunset', 'link']) expect(exposed).toContain(name);
  });
});

describe('CORS with --cors-origin', () => {
  const mock = useMock({ corsOrigins: ['http://app.test'] });

  it('allows a listed origin and names it', async () => {
    const res = await mock.authed('/pets', { headers: { ...auth, origin: 'http://app.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.test');
  });

  it('gives no Access-Control-Allow-Origin to another origin', async () => {
    const res = await mock.authed('/pets', { headers: { ...auth, origin: 'http://evil.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('an internal fault', () => {
  // A catalogue that fails stands for any bug in the mock: the answer must
  // still be an Error body, and the process must go on serving.
  const broken = (store: MockStore): MockStore =>
    wrapCatalogues(store, (catalogue) => ({
      ...catalogue,
      listJson: () => {
        throw new Error('disk on fire');
      },
    }));
  const mock = useMock({ pets: [], wrapStore: broken });

  it('answers 500 internal_error with an Error body and keeps serving', async () => {
    const res = await mock.authed('/pets');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ code: 'internal_error', message: expect.any(String), status: 500 });
    expect(res.json.message).not.toContain('disk on fire');
    expect(mock.logs.some((l) => l.level === 50 && String(l.msg).includes('internal error'))).toBe(true);
    expect((await mock.authed('/pets/1')).status).toBe(404);
  });
});

describe('requests node itself cannot read', () => {
  const mock = useMock();
  // Raw bytes over TCP: fetch cannot send these.
  const raw = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(mock.url);
      const socket = connect(Number(port), hostname, () => socket.end(text));
      let answer = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

  // Tried: an unknown method, a request line that is not HTTP, headers over
  // node's 16 KiB limit, and a Host header that is not a host.
  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['a request line that is not HTTP', 'hello there\r\n\r\n', 400, 'bad_request'],
    ['headers over 16 KiB', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a Host that is not a host', 'GET /v1/pets HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 'bad_request'],
  ])('answers %s with an Error body', async (_, request, status, code) => {
    const answer = await raw(request);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.toLowerCase()).toContain('content-type: application/json');
    expect(answer.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(bodyOf(answer)).toEqual({ code, message: expect.any(String), status });
  });
});
