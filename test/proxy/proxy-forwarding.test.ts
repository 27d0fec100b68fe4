import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { startMock, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { sha, startEdgeUpstream, type EdgeUpstream } from './edge-upstream.js';
import { endToEndHeaders, rawRequest } from './raw-get.js';

/**
 * `animal-store-mock --proxy URL` over real HTTP, the built command in
 * front of a raw node:http upstream: what goes out is what came in, what
 * comes back is what the target sent, byte for byte, and a target that
 * fails is told apart (502, 504, a dropped connection).
 */
useBuiltCli();
const KEY = 'Bearer client-key-of-staging';
let upstream: EdgeUpstream;
let mock: RunningMock;

beforeAll(async () => {
  upstream = await startEdgeUpstream();
});
afterAll(async () => upstream?.close());

const journal = async (): Promise<Array<Record<string, any>>> => ((await (await fetch(`${new URL(mock.url).origin}/__mock/journal`)).json()) as { entries: Array<Record<string, any>> }).entries;

describe('forwarding', () => {
  // useBuiltCli stops each test's mock after it.
  beforeEach(async () => {
    mock = await startMock(['--proxy', upstream.url, '--proxy-timeout', '400']);
  });

  it.each([['/pets/non-ascii'], ['/pets/long'], ['/empty'], ['/text'], ['/redirect'], ['/chunked'], ['/nowhere?x=%C3%A9'], ['/pets/odd-status']])('GET %s comes back byte for byte, no field added', async (path) => {
    const direct = await rawRequest(`${upstream.url}${path}`, { headers: { authorization: KEY } });
    const proxied = await rawRequest(`${mock.url}${path}`, { headers: { authorization: KEY } });
    expect(proxied.status).toBe(direct.status);
    expect(proxied.statusMessage).toBe(direct.statusMessage);
    expect(endToEndHeaders(proxied.rawHeaders)).toEqual(endToEndHeaders(direct.rawHeaders));
    expect(sha(proxied.body)).toBe(sha(direct.body));
    // The upstream sends no Date: one here would have been added.
    expect(proxied.rawHeaders.map((name) => name.toLowerCase())).not.toContain('date');
  });

  it('journals and logs a status past 599 as the target sent it, checks it as undocumented, and stays up', async () => {
    expect((await rawRequest(`${mock.url}/pets/odd-status`, { headers: { authorization: KEY } })).status).toBe(999);
    expect((await rawRequest(`${mock.url}/pets/non-ascii`, { headers: { authorization: KEY } })).status).toBe(200);
    const [odd] = (await journal()).filter((entry) => entry.path === '/v1/pets/odd-status');
    expect(odd?.status).toBe(999);
    expect(JSON.stringify(odd?.violations)).toContain('999');
    expect(mock.stdout()).toContain('GET /v1/pets/odd-status 999');
  });

  it('judges answers whose Content-Type a parser may choke on, and stays up: an empty parameter or list element is no violation', async () => {
    for (const path of ['/pets/empty-parameter', '/pets/empty-element', '/pets/bare-parameter', '/pets/non-ascii']) {
      expect((await rawRequest(`${mock.url}${path}`, { headers: { authorization: KEY } })).status, path).toBe(200);
    }
    // The checks run once the answer has gone: the last request's entry shows they all ran, and the process still answers.
    await expect.poll(async () => (await journal()).some((entry) => entry.path === '/v1/pets/non-ascii' && entry.violations !== undefined)).toBe(true);
    const entries = await journal();
    const violationsOf = (path: string) => JSON.stringify(entries.find((entry) => entry.path === path)?.violations ?? []);
    expect(violationsOf('/v1/pets/empty-parameter')).toBe('[]');
    expect(violationsOf('/v1/pets/empty-element')).toBe('[]');
    expect((await rawRequest(`${mock.url}/pets/non-ascii`, { headers: { authorization: KEY } })).status).toBe(200);
    expect(mock.stderr()).not.toMatch(/TypeError|uncaught/i);
  });

  it('judges an animal answered to a getPet path whose octets are no UTF-8 (%C0%AF), and stays up', async () => {
    expect((await rawRequest(`${mock.url}/pets/1%C0%AF`, { headers: { authorization: KEY } })).status).toBe(200);
    await expect.poll(async () => (await journal()).some((entry) => entry.path === '/v1/pets/1%C0%AF' && entry.violations !== undefined)).toBe(true);
    expect((await rawRequest(`${mock.url}/pets/non-ascii`, { headers: { authorization: KEY } })).status).toBe(200);
    expect(mock.stderr()).not.toMatch(/URIError|uncaught/i);
  });

  it('answers 502 upstream_unavailable at once when the target switches protocols unasked, and journals it', async () => {
    const answer = await rawRequest(`${mock.url}/pets/switch`, { headers: { authorization: KEY } });
    expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([502, { code: 'upstream_unavailable', message: expect.stringContaining('switched protocols (101) for a request that asked for none'), status: 502 }]);
    const [entry] = (await journal()).filter((e) => e.path === '/v1/pets/switch');
    expect([entry?.status, entry?.upstream]).toEqual([502, 'unavailable']);
  });

  it('keeps the client\'s connection open after a proxied answer, for the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const reused: boolean[] = [];
      for (const path of ['/pets/non-ascii', '/chunked', '/text']) reused.push((await rawRequest(`${mock.url}${path}`, { headers: { authorization: KEY }, agent })).reusedSocket);
      expect(reused).toEqual([false, true, true]);
      expect(mock.stderr()).toBe('');
    } finally {
      agent.destroy();
    }
  });

  it('HEAD gets the head alone, as the target sent it, and the mock writes it once (nothing on stderr)', async () => {
    const direct = await rawRequest(`${upstream.url}/pets/non-ascii`, { method: 'HEAD', headers: { authorization: KEY } });
    const proxied = await rawRequest(`${mock.url}/pets/non-ascii`, { method: 'HEAD', headers: { authorization: KEY } });
    expect([proxied.status, proxied.body.length]).toEqual([200, 0]);
    expect(endToEndHeaders(proxied.rawHeaders)).toEqual(endToEndHeaders(direct.rawHeaders));
    // The next request on a new connection is still answered, and the log shows the HEAD once, as any request.
    expect((await rawRequest(`${mock.url}/pets/non-ascii`, { headers: { authorization: KEY } })).status).toBe(200);
    await expect.poll(() => mock.stdout()).toContain('HEAD /v1/pets/non-ascii 200');
    expect(mock.stderr()).toBe('');
  });

  it('sends the request as it came: method, path, query, body, fields less the hop-by-hop ones, Host for the target', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'Zoë', categoryId: 1, note: 'x'.repeat(200_000) }));
    const answer = await rawRequest(`${mock.url}/echo?b=2&a=%C3%A9&a=1`, {
      method: 'POST',
      headers: { authorization: KEY, 'content-type': 'application/json', 'X-Custom': 'Kept As Sent', connection: 'keep-alive, X-Drop-Me', 'x-drop-me': '1', 'keep-alive': 'timeout=5', te: 'trailers' },
      body,
    });
    const echo = JSON.parse(answer.body.toString()) as { method: string; url: string; rawHeaders: string[]; bodySha: string };
    expect(echo.method).toBe('POST');
    expect(echo.url).toBe('/v1/echo?b=2&a=%C3%A9&a=1');
    expect(echo.bodySha).toBe(sha(body));
    const names = echo.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names).toContain('X-Custom');
    expect(echo.rawHeaders[echo.rawHeaders.indexOf('X-Custom') + 1]).toBe('Kept As Sent');
    expect(names.map((name) => name.toLowerCase())).not.toContain('x-drop-me');
    expect(names.map((name) => name.toLowerCase())).not.toContain('te');
    expect(echo.rawHeaders[echo.rawHeaders.findIndex((name) => name.toLowerCase() === 'host') + 1]).toBe(`127.0.0.1:${upstream.port}`);
    expect(echo.rawHeaders[echo.rawHeaders.findIndex((name) => name.toLowerCase() === 'authorization') + 1]).toBe(KEY);
  });

  it('drops the client\'s connection when the target drops its own mid-body', async () => {
    await expect(rawRequest(`${mock.url}/dies`, { headers: { authorization: KEY } })).rejects.toThrow();
    await expect.poll(async () => (await journal()).findLast((entry) => entry.path === '/v1/dies')?.upstream).toBe('dropped');
  });

  it('answers 504 upstream_timeout when the target sends no head within --proxy-timeout', async () => {
    const started = performance.now();
    const answer = await rawRequest(`${mock.url}/hangs`, { headers: { authorization: KEY } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'upstream_timeout', status: 504 });
    expect((await journal()).findLast((entry) => entry.path === '/v1/hangs')).toMatchObject({ status: 504, upstream: 'timeout' });
  });

  it('gives up on the target when the client resets its connection first, and journals 499', async () => {
    const { port } = new URL(mock.url);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /v1/hangs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${KEY}\r\n\r\n`));
    socket.on('error', () => undefined);
    const before = upstream.seen.length;
    await expect.poll(() => upstream.seen.length, { interval: 5 }).toBe(before + 1);
    // A reset, not a half-close: a client may half-close once its request is sent and still want the answer.
    socket.resetAndDestroy();
    await expect.poll(async () => (await journal()).findLast((entry) => entry.path === '/v1/hangs')?.status).toBe(499);
    expect((await journal()).findLast((entry) => entry.path === '/v1/hangs')?.upstream).toBeUndefined();
  });

  it('passes a body past the check\'s cap on whole, and marks it unchecked', async () => {
    const direct = await rawRequest(`${upstream.url}/huge`, { headers: { authorization: KEY } });
    const proxied = await rawRequest(`${mock.url}/huge`, { headers: { authorization: KEY } });
    expect(proxied.body.length).toBe(direct.body.length);
    expect(sha(proxied.body)).toBe(sha(direct.body));
    expect((await journal()).findLast((entry) => entry.path === '/v1/huge')).toMatchObject({ upstream: 'answered', unchecked: 'too large', violations: [] });
  });
});

describe('an unreachable target', () => {
  it('answers 502 upstream_unavailable, and the journal says so', async () => {
    const closed = await startEdgeUpstream();
    await closed.close();
    mock = await startMock(['--proxy', closed.url]);
    const answer = await rawRequest(`${mock.url}/pets`, { headers: { authorization: KEY } });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    expect((await journal()).at(-1)).toMatchObject({ status: 502, upstream: 'unavailable' });
  });
});
