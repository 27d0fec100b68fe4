import { request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { createMockApp } from '../app.js';
import { listen } from '../listen.js';
import { createLogger } from '../../logger.js';
import { loadScenarioFile } from '../../core/scenarios/load-scenario.js';
import { openMemoryStore } from '../../../../test/support/memory-store.js';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

const folder = scenarioFolder();
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('faults, over HTTP', () => {
  const byHeader = (value: string, fault: unknown, operation = '*') => ({ id: value, match: { operation, headers: { 'x-fault': { equals: value } } }, fault });
  folder.write('faults.yaml', scenarioWith('faults', [
    byHeader('reset', { then: 'reset' }),
    byHeader('close', { then: 'close' }),
    byHeader('hang', { then: 'hang' }),
    byHeader('malformed-json', { then: 'malformed-json' }),
    byHeader('empty-body', { then: 'empty-body' }),
    byHeader('wrong-content-type', { then: 'wrong-content-type' }),
    byHeader('gateway-page', { then: 'gateway-page' }),
    byHeader('fallback-page', { then: 'fallback-page' }),
    byHeader('truncated-body', { then: 'truncated-body' }),
    byHeader('trickle', { then: { trickle: { chunkBytes: 64, intervalMs: 40 } } }),
    byHeader('fixed-then-pass', { latency: { fixedMs: 200 }, then: 'pass' }),
    byHeader('fixed-only', { latency: { fixedMs: 200 } }),
    byHeader('uniform', { latency: { uniformMs: [100, 150] } }),
    byHeader('log-normal', { latency: { logNormal: { medianMs: 100, sigma: 0 } } }),
    byHeader('late-503', { latency: { fixedMs: 150 }, then: { status: 503, retryAfterSeconds: 7 } }),
    byHeader('500', { then: { status: 500 } }),
    byHeader('429', { then: { status: 429, retryAfterSeconds: 0 } }),
  ]));
  const mock = useMock({ scenario: 'faults', scenariosDir: folder.dir });
  const raw = (path: string, fault: string, init: RequestInit = {}) =>
    fetch(`${mock.url}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_KEY}`, 'x-fault': fault, ...(init.headers as Record<string, string>) } });
  const elapsed = async (run: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };

  it('reset: the connection is reset (ECONNRESET), nothing is answered', async () => {
    const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
      const req = httpRequest(`${mock.url}/pets`, { agent: false, headers: { authorization: `Bearer ${TEST_KEY}`, 'x-fault': 'reset' } });
      req.on('response', (res) => reject(new Error(`expected no answer, got ${res.statusCode}`)));
      req.on('error', resolve);
      req.end();
    });
    expect(error.code).toBe('ECONNRESET');
    // fetch sees it too, and the mock goes on serving.
    await expect(raw('/pets/1', 'reset')).rejects.toThrow('fetch failed');
    expect((await mock.authed('/pets/1')).status).toBe(200);
  });

  it('close: the connection ends cleanly (FIN, not a reset) before a single byte of answer; nothing is stored', async () => {
    const { port } = new URL(mock.url);
    const ending = await new Promise<{ received: number; ended: string }>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nX-Fault: close\r\n\r\n`));
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.on('end', () => resolve({ received, ended: 'FIN' }));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve({ received, ended: error.code ?? error.message }));
    });
    expect(ending).toEqual({ received: 0, ended: 'FIN' });
    const before = (await mock.health()).pets;
    await expect(raw('/pets', 'close', json({ name: 'Twice', categoryId: 2 }))).rejects.toThrow('fetch failed');
    expect((await mock.health()).pets).toBe(before);
    expect((await mock.authed('/pets/1')).status).toBe(200);
  });

  it('hang: nothing is answered until the client gives up; the mock goes on serving', async () => {
    const error = await raw('/pets', 'hang', { signal: AbortSignal.timeout(300) }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
    // Once the client has gone, the request log says 499 (nginx's "client closed request").
    await vi.waitFor(() => expect(mock.logs.some((line) => line.status === 499)).toBe(true));
  });

  it('malformed-json: the normal status and content type, the body cut half way', async () => {
    const normal = await (await raw('/pets?limit=3', 'none')).text();
    const res = await raw('/pets?limit=3', 'malformed-json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(normal.startsWith(text)).toBe(true);
    expect(text.length).toBe(Math.ceil(normal.length / 2));
    expect(() => JSON.parse(text)).toThrow();
  });

  it('malformed-json on createPet: 201 cut short, and the animal is stored all the same', async () => {
    const before = (await mock.health()).pets;
    const res = await raw('/pets', 'malformed-json', json({ name: 'Half', categoryId: 2 }));
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text.startsWith('{"id":')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    expect((await mock.health()).pets).toBe(before + 1);
  });

  it('empty-body: the normal status and headers, Content-Length: 0 and no body, which no JSON parser reads', async () => {
    const normal = await raw('/pets/1', 'none');
    const res = await raw('/pets/1', 'empty-body');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(normal.headers.get('content-type'));
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.headers.get('transfer-encoding')).toBeNull();
    // getPet's deprecation headers are still there.
    expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const text = await res.text();
    expect(text).toBe('');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('empty-body on createPet: 201 with its Location and no body, and the animal is stored all the same', async () => {
    const before = (await mock.health()).pets;
    const res = await raw('/pets', 'empty-body', json({ name: 'Bodiless', categoryId: 2 }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/^\/v1\/pets\/\d+$/);
    expect(await res.text()).toBe('');
    expect((await mock.health()).pets).toBe(before + 1);
    expect((await mock.authed(res.headers.get('location')?.replace('/v1', '') ?? '')).json.name).toBe('Bodiless');
  });

  it('wrong-content-type: the normal answer, byte for byte, labelled text/plain; createPet still stores its animal', async () => {
    const normal = await raw('/pets/1', 'none');
    const res = await raw('/pets/1', 'wrong-content-type');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('sunset')).toBe(normal.headers.get('sunset'));
    expect(await res.text()).toBe(await normal.text());
    const before = (await mock.health()).pets;
    const created = await raw('/pets', 'wrong-content-type', json({ name: 'Plain', categoryId: 2 }));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('text/plain');
    expect(created.headers.get('location')).toMatch(/^\/v1\/pets\/\d+$/);
    expect(JSON.parse(await created.text())).toMatchObject({ name: 'Plain', categoryId: 2 });
    expect((await mock.health()).pets).toBe(before + 1);
  });

  it.each([
    ['gateway-page', 502, 'text/html', /^<html>\r\n<head><title>502 Bad Gateway<\/title><\/head>/, 'Simulated by the mock: scenario faults, stub gateway-page.'],
    ['fallback-page', 200, 'text/html; charset=utf-8', /^<!doctype html>\n<html lang="en">/, '<!-- Simulated by the mock: scenario faults, stub fallback-page. -->'],
  ] as const)('%s: %i with an HTML page (a gateway\'s, a web app\'s index.html) naming the scenario and stub, CORS kept, nothing served', async (fault, status, type, start, simulated) => {
    const before = (await mock.health()).pets;
    for (const [path, init] of [['/pets?limit=3', {}], ['/pets/1', {}], ['/pets', json({ name: 'Never', categoryId: 2 })]] as const) {
      const res = await raw(path, fault, { ...init, headers: { ...('headers' in init ? init.headers : {}), origin: 'http://localhost:3000' } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('location')).toBeNull();
      const text = await res.text();
      expect(text).toMatch(start);
      expect(text).toContain(simulated);
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(() => JSON.parse(text)).toThrow();
    }
    expect((await mock.health()).pets).toBe(before);
  });

  it('truncated-body: the normal status and whole Content-Length, the first half of the body, then the connection closed', async () => {
    const normal = Buffer.from(await (await raw('/pets?limit=5', 'none')).arrayBuffer());
    const cut = await new Promise<{ status?: number; length?: string; received: Buffer; ended: string }>((resolve, reject) => {
      const req = httpRequest(`${mock.url}/pets?limit=5`, { agent: false, headers: { authorization: `Bearer ${TEST_KEY}`, 'x-fault': 'truncated-body' } }, (res) => {
        const chunks: Buffer[] = [];
        const done = (ended: string) => resolve({ status: res.statusCode, length: res.headers['content-length'], received: Buffer.concat(chunks), ended });
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done('whole'));
        res.on('error', (error) => done(error.message));
      });
      req.on('error', reject);
      req.end();
    });
    expect(cut).toEqual({ status: 200, length: String(normal.length), received: normal.subarray(0, Math.floor(normal.length / 2)), ended: 'aborted' });
    // fetch's read of the body fails too, and the mock goes on serving.
    await expect((await raw('/pets/1', 'truncated-body')).text()).rejects.toThrow('terminated');
    expect((await mock.authed('/pets/1')).status).toBe(200);
  });

  it('truncated-body on createPet: 201 cut short, and the animal is stored all the same', async () => {
    const before = (await mock.health()).pets;
    const res = await raw('/pets', 'truncated-body', json({ name: 'Cut short', categoryId: 2 }));
    expect(res.status).toBe(201);
    await expect(res.text()).rejects.toThrow('terminated');
    expect((await mock.health()).pets).toBe(before + 1);
  });

  it('trickle: the normal body, in several chunks, intervalMs apart', async () => {
    const normal = await (await raw('/pets?limit=5', 'none')).text();
    const chunks = Math.ceil(Buffer.byteLength(normal) / 64);
    expect(chunks).toBeGreaterThan(2);
    const started = performance.now();
    const res = await raw('/pets?limit=5', 'trickle');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(normal)));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const received: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) received.push(read.value);
    expect(performance.now() - started).toBeGreaterThanOrEqual((chunks - 1) * 40 - 5);
    expect(received.length).toBeGreaterThan(1);
    expect(Buffer.concat(received).toString()).toBe(normal);
    // The trickled answer keeps the contract (fidelity check).
    expect((await mock.authed('/pets?limit=5', { headers: { 'x-fault': 'trickle' } })).text).toBe(normal);
  });

  it.each([
    ['fixed-then-pass', 200],
    ['fixed-only', 200],
    ['uniform', 100],
    ['log-normal', 100],
  ])('latency %s: the normal answer, after at least %i ms', async (fault, atLeast) => {
    let res: Awaited<ReturnType<typeof mock.authed>> | undefined;
    const ms = await elapsed(async () => (res = await mock.authed('/pets/2', { headers: { 'x-fault': fault } })));
    expect(ms).toBeGreaterThanOrEqual(atLeast - 5);
    expect(res?.status).toBe(200);
    expect(res?.json.id).toBe(2);
  });

  it('latency then a status: 503 with Retry-After, after the delay', async () => {
    let res: Awaited<ReturnType<typeof mock.authed>> | undefined;
    expect(await elapsed(async () => (res = await mock.authed('/pets', { headers: { 'x-fault': 'late-503' } })))).toBeGreaterThanOrEqual(145);
    expect(res?.status).toBe(503);
    expect(res?.headers.get('retry-after')).toBe('7');
  });

  it.each([
    ['500', 500, 'internal_error', null],
    ['429', 429, 'too_many_requests', '0'],
  ])('then status %s: an Error body with that status', async (fault, status, code, retryAfter) => {
    const res = await mock.authed('/pets/1', { headers: { 'x-fault': fault } });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('retry-after')).toBe(retryAfter);
    expect(res.json).toEqual({ code, message: expect.stringContaining(`scenario faults, stub ${fault}`), status });
    // getPet's deprecation headers are still there.
    expect(res.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });
});

describe('a hang ends when the server shuts down', () => {
  const file = folder.write('hang.yaml', scenarioWith('hang', [{ match: { operation: 'listPets' }, fault: { then: 'hang' } }]));

  it('aborting the shutdown signal closes the hung connection, while the server is still up', async () => {
    const contract = loadContract();
    const scenario = loadScenarioFile(contract, file);
    if (!scenario.ok) throw new Error(scenario.error);
    const shutdown = new AbortController();
    const start = { scenario: scenario.value, pets: [] };
    const { store } = await openMemoryStore(contract, start, folder.dir);
    const app = createMockApp({ contract, store, apiKeys: [TEST_KEY], logger: createLogger({ format: 'json', level: 'warn' }), shutdown: shutdown.signal });
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    const { port } = await listen(server, 0, '127.0.0.1');
    try {
      const pending = fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}` } }).then(
        (res) => `answered ${res.status}`,
        (error: Error) => `failed: ${error.message}`,
      );
      await vi.waitFor(async () => expect((await (await store.shared.control.active()).calls())[0]).toBe(1));
      // Without the signal this request would wait for ever (until the test times out).
      shutdown.abort();
      expect(await pending).toBe('failed: fetch failed');
    } finally {
      store.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
