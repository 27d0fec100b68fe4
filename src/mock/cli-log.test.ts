import { describe, expect, it, vi } from 'vitest';
import { request as httpRequest } from 'node:http';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getJson, requestLines, startMock, statusWith, stop, tmpDir, useBuiltCli } from '../../test/support/built-cli.js';

/** The built CLI's request log and how it stops. */
useBuiltCli();

describe('the request log', () => {
  it('--log-format json writes one JSON line per request, with method, path, status, ms and deprecated', async () => {
    const mock = await startMock(['--log-format', 'json']);
    expect((await getJson(`${mock.url}/pets?limit=2`, DEFAULT_API_KEY)).status).toBe(200);
    expect((await getJson(`${mock.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(200);
    expect((await getJson(`${mock.url}/pets/999`, DEFAULT_API_KEY)).status).toBe(404);
    expect(await statusWith(mock, 'wrong-key')).toBe(401);
    expect(await stop(mock)).toEqual({ code: 0, signal: null });

    const lines = requestLines(mock.stdout());
    expect(lines).toHaveLength(4);
    expect(lines.map(({ method, path, status, deprecated }) => ({ method, path, status, deprecated }))).toEqual([
      { method: 'GET', path: '/v1/pets', status: 200, deprecated: false },
      { method: 'GET', path: '/v1/pets/1', status: 200, deprecated: true },
      { method: 'GET', path: '/v1/pets/999', status: 404, deprecated: true },
      { method: 'GET', path: '/v1/pets', status: 401, deprecated: false },
    ]);
    for (const line of lines) {
      expect(typeof line.ms).toBe('number');
      expect(line.ms as number).toBeGreaterThanOrEqual(0);
    }
  });

  it('--log-format json stays JSON only, stderr included, with 12 requests hung by a scenario at once', async () => {
    const dir = join(tmpDir(), 'hang-scenarios');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hang.yaml'), 'name: hang\ndescription: every listPets hangs\ncatalogue:\n  fixture: fixtures/pets.json\nstubs:\n  - match: { operation: listPets }\n    fault: { then: hang }\n');
    const mock = await startMock(['--log-format', 'json', '--scenarios', dir, '--scenario', 'hang']);
    const hung = Array.from({ length: 12 }, () => {
      const req = httpRequest(`${mock.url}/pets`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
      req.on('error', () => undefined);
      req.end();
      return req;
    });
    await vi.waitFor(async () => expect((await getJson(`${new URL(mock.url).origin}/__mock/health`, DEFAULT_API_KEY)).body.calls[0]).toBe(12));
    expect(await stop(mock)).toEqual({ code: 0, signal: null });
    for (const req of hung) req.destroy();
    expect(mock.stderr()).toBe('');
    for (const line of mock.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('--log-format json writes start-up as one JSON line too, with the URL, key and curl line', async () => {
    const mock = await startMock(['--log-format', 'json']);
    const lines = mock.stdout().split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const started = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(started).toMatchObject({ msg: `Animal Store mock listening on ${mock.url}`, url: mock.url, apiKey: DEFAULT_API_KEY });
    expect(started.curl).toBe(`curl -H 'Authorization: Bearer ${DEFAULT_API_KEY}' '${mock.url}/pets?limit=5'`);
  });

  it('bound to every interface, the start-up line gives a URL a client on this machine can use and says that every interface listens', async () => {
    const mock = await startMock(['--host', '0.0.0.0', '--log-format', 'json']);
    const started = JSON.parse(mock.stdout().split('\n')[0] as string) as { msg: string; url: string };
    const port = new URL(mock.url).port;
    expect(started.url).toBe(`http://localhost:${port}/v1`);
    expect(started.msg).toBe(`Animal Store mock listening on http://localhost:${port}/v1 (every interface, 0.0.0.0:${port}: from another machine or a container's host, use its address or mapped port)`);
    expect((await getJson(`${started.url}/pets`, DEFAULT_API_KEY)).status).toBe(200);
  });

  it('--quiet writes no per-request line, but still the deprecation warning', async () => {
    const mock = await startMock(['--quiet', '--log-format', 'json']);
    for (let i = 0; i < 3; i++) expect((await getJson(`${mock.url}/pets`, DEFAULT_API_KEY)).status).toBe(200);
    expect((await getJson(`${mock.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(200);
    expect(await statusWith(mock, undefined)).toBe(401);
    // Wait for the exit, so every line the process wrote has been read.
    expect(await stop(mock)).toEqual({ code: 0, signal: null });

    const stdout = mock.stdout();
    expect(requestLines(stdout)).toEqual([]);
    // Neither a JSON nor a readable per-request line (`GET /v1/pets 200 0.4ms`).
    expect(stdout).not.toMatch(/GET \/v1\/pets\S* \d{3} /);
    expect(stdout).toContain('is deprecated');
  });

  it('--log-format pretty writes one readable line per request', async () => {
    const mock = await startMock(['--log-format', 'pretty']);
    expect((await getJson(`${mock.url}/pets`, DEFAULT_API_KEY)).status).toBe(200);
    expect((await getJson(`${mock.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(200);
    expect(await stop(mock)).toEqual({ code: 0, signal: null });
    const lines = mock.stdout().split('\n').filter((line) => /GET \/v1\/pets\S* \d{3} /.test(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/GET \/v1\/pets 200 [\d.]+ms$/);
    expect(lines[1]).toMatch(/GET \/v1\/pets\/1 200 [\d.]+ms \(deprecated\)$/);
  });

  // A path is percent-decoded before it is logged: CR, LF and ESC in it must not forge lines or colours.
  it('--log-format pretty writes control characters of a path escaped, on the request\'s own line', async () => {
    const mock = await startMock(['--log-format', 'pretty']);
    const forged = `${mock.url}/pets%0d%0aFORGED%20GET%20%2Fv1%2Fpets%20200%1b%5b31m`;
    expect((await getJson(forged, DEFAULT_API_KEY)).status).toBe(404);
    expect(await stop(mock)).toEqual({ code: 0, signal: null });
    const stdout = mock.stdout();
    expect(stdout).not.toMatch(/^FORGED/m);
    expect(stdout).not.toContain('\u001b[31m');
    expect(stdout).toContain('GET /v1/pets\\x0d\\x0aFORGED GET %2Fv1%2Fpets 200\\x1b[31m 404');
  });

  // A container's health check every 30 s, or an open console's polls every 5 s, would otherwise be most of the log.
  it('logs passing admin reads (health, the console and its polls) only at --log-level debug, admin changes and the API at info', async () => {
    const levels = async (args: string[]) => {
      const mock = await startMock(['--log-format', 'json', ...args]);
      const origin = new URL(mock.url).origin;
      for (const path of ['/__mock/health', '/__mock/', '/__mock/sessions']) expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
      expect((await fetch(`${origin}/__mock/reset`, { method: 'POST', headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).status).toBe(200);
      expect((await getJson(`${mock.url}/pets`, DEFAULT_API_KEY)).status).toBe(200);
      expect(await stop(mock)).toEqual({ code: 0, signal: null });
      return requestLines(mock.stdout()).map(({ path, status, level }) => ({ path, status, level }));
    };
    expect(await levels([])).toEqual([
      { path: '/__mock/reset', status: 200, level: 30 },
      { path: '/v1/pets', status: 200, level: 30 },
    ]);
    expect(await levels(['--log-level', 'debug'])).toEqual([
      { path: '/__mock/health', status: 200, level: 20 },
      { path: '/__mock/', status: 200, level: 20 },
      { path: '/__mock/sessions', status: 200, level: 20 },
      { path: '/__mock/reset', status: 200, level: 30 },
      { path: '/v1/pets', status: 200, level: 30 },
    ]);
  });

  it('logs a failing health check at info: with --admin-key, one without the key gets 401', async () => {
    const mock = await startMock(['--log-format', 'json', '--admin-key', 'log-admin-key']);
    expect((await fetch(`${new URL(mock.url).origin}/__mock/health`)).status).toBe(401);
    expect(await stop(mock)).toEqual({ code: 0, signal: null });
    expect(requestLines(mock.stdout()).map(({ path, status, level }) => ({ path, status, level }))).toEqual([{ path: '/__mock/health', status: 401, level: 30 }]);
  });

  it('--quiet with --log-format pretty writes no per-request line either', async () => {
    const mock = await startMock(['--quiet', '--log-format', 'pretty']);
    for (let i = 0; i < 3; i++) expect((await getJson(`${mock.url}/pets`, DEFAULT_API_KEY)).status).toBe(200);
    expect(await stop(mock)).toEqual({ code: 0, signal: null });
    expect(mock.stdout()).not.toMatch(/GET \/v1\/pets\S* \d{3} /);
  });
});

describe('stopping', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the process with exit code 0 and says it is stopping', async (signal) => {
    const mock = await startMock();
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
    expect(await stop(mock, signal)).toEqual({ code: 0, signal: null });
    expect(mock.stdout()).toContain(`${signal} received: finishing requests in flight, then stopping.`);
    expect(mock.stderr()).toBe('');
  });

  it('SIGTERM the moment the start-up line is read stops with exit code 0, start after start', { timeout: 60_000 }, async () => {
    // The handlers are in place before the line is written: node's default would end the process by the signal.
    for (let i = 0; i < 10; i++) expect(await stop(await startMock(), 'SIGTERM'), `start ${i + 1}`).toEqual({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('with --log-format json, every line is JSON to the last, %s included', async (signal) => {
    const mock = await startMock(['--log-format', 'json']);
    expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
    expect(await stop(mock, signal)).toEqual({ code: 0, signal: null });
    const lines = mock.stdout().split('\n').filter((line) => line !== '');
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; signal?: string };
      } catch {
        return line;
      }
    });
    expect(parsed.filter((line) => typeof line === 'string'), 'lines that are not JSON').toEqual([]);
    expect(parsed.at(-1)).toMatchObject({ level: 40, signal, msg: `${signal} received: finishing requests in flight, then stopping.` });
  });

  it('answers a request already in flight when SIGTERM arrives, then exits with 0', async () => {
    const mock = await startMock();
    const body = JSON.stringify({ name: 'Late', categoryId: 2 });
    // Expect: 100-continue makes the server confirm it has read the
    // request head before the body is sent: the request is then surely in
    // flight when the signal arrives.
    const req = httpRequest(`${mock.url}/pets`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${DEFAULT_API_KEY}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        expect: '100-continue',
      },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    const continued = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.flushHeaders();
    await continued;

    mock.child.kill('SIGTERM');
    await vi.waitFor(() => expect(mock.stdout()).toContain('SIGTERM received'), { timeout: 10_000 });
    req.end(body);

    const answer = await response;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'Late', categoryId: 2, id: 31 });
    expect(await mock.exited).toEqual({ code: 0, signal: null });
  });

  it('a second signal while requests are in flight stops at once, with exit code 130', async () => {
    const mock = await startMock();
    const req = httpRequest(`${mock.url}/pets`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', 'content-length': '100', expect: '100-continue' },
    });
    req.on('error', () => {
      // The connection is cut when the process stops: expected here.
    });
    const continued = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.flushHeaders();
    await continued;

    mock.child.kill('SIGINT');
    await vi.waitFor(() => expect(mock.stdout()).toContain('SIGINT received'), { timeout: 10_000 });
    mock.child.kill('SIGINT');
    expect(await mock.exited).toEqual({ code: 130, signal: null });
    req.destroy();
  });
});
