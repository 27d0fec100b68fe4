import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadContract } from '../../src/document/load-contract.js';
import { loadScenario } from '../../src/mock/core/scenarios/load-scenario.js';
import { RECORDING_LIMITS } from '../../src/mock/core/proxy/recording.js';
import { CONTRACT_BIN } from '../support/contract-cli.js';
import { childEnv, Processes } from '../support/processes.js';
import { startMock, stop, tmpDir, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { startReferenceServer } from '../servers/reference-server.js';
import { rawRequest } from './raw-get.js';
import { startEdgeUpstream } from './edge-upstream.js';
import { adminDocumentChecker } from '../support/admin-document.js';

/**
 * `--record DIR` over real HTTP: traffic through the proxy to the reference
 * server becomes a scenario that loads as written, that the harness passes
 * against, that holds no credential in any encoding, and that the same
 * traffic writes again byte for byte; a request answered differently over
 * time becomes a sequence.
 */
useBuiltCli();
const contract = loadContract();
const MOCK_KEY = 'animal-store-dev-key';
const STAGING_KEY = 'staging-key-Zq8Lw2Vr9T';
const COOKIE = 'sessionid=cookie-value-Hk3Jd8Qp';
const QUERY_KEY = 'query-key-Mn4Xc7Bv1';
const processes = new Processes();
const admin = adminDocumentChecker();
const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  await processes.killAll();
});

/** A frontend's traffic: lists, reads, a create, and requests staging refuses. */
async function traffic(mock: RunningMock): Promise<void> {
  const headers = { authorization: `Bearer ${MOCK_KEY}`, cookie: COOKIE, 'x-request-id': 'trace-1234' };
  for (const path of ['/pets?limit=5', '/pets?limit=100', '/pets/1', '/pets/2', '/pets?status=sold', '/pets/999999', `/pets?limit=3&api_key=${QUERY_KEY}`]) {
    await rawRequest(`${mock.url}${path}`, { headers });
  }
  const post = (body: string) => rawRequest(`${mock.url}/pets`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  expect((await post(JSON.stringify({ name: 'Recorded Rex', categoryId: 2 }))).status).toBe(201);
  expect((await post(JSON.stringify({ name: 'No category' }))).status).toBe(400);
  await rawRequest(`${mock.url}/pets?limit=2`, { headers });
}

async function record(dir: string): Promise<void> {
  const staging = await startReferenceServer({ apiKey: STAGING_KEY });
  closing.push(() => staging.close());
  const mock = await startMock(['--proxy', staging.url, '--upstream-key', STAGING_KEY, '--record', dir]);
  await traffic(mock);
  expect((await stop(mock)).code).toBe(0);
}

const filesOf = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

/** A secret as a server might echo it: as sent, percent-encoded, in base64 and base64url. */
const forms = (secret: string): string[] => [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64').replace(/=+$/, ''), Buffer.from(secret).toString('base64url')];

describe('--record DIR', () => {
  it('writes a scenario that loads, holds staging\'s animals, no credential, and the same bytes for the same traffic', async () => {
    const dir = join(tmpDir(), 'recording');
    await record(dir);
    const first = filesOf(dir);
    expect(Object.keys(first)).toEqual(['recorded.pets.json', 'recorded.yaml']);

    const loaded = loadScenario(contract, dir, 'recorded');
    expect(loaded.ok ? loaded.value.name : loaded.error).toBe('recorded');
    const pets = JSON.parse(first['recorded.pets.json'] as string) as Array<{ id: number; name: string }>;
    expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
    expect(pets.find((pet) => pet.id === 1)).toBeDefined();
    expect(pets.some((pet) => pet.name === 'Recorded Rex')).toBe(true);
    // The refused create is a stub, matched on its body and content type.
    expect(first['recorded.yaml']).toMatch(/operation: createPet[\s\S]*status: 400/);

    const everything = Object.values(first).join('\n');
    for (const secret of [STAGING_KEY, MOCK_KEY, 'cookie-value-Hk3Jd8Qp', QUERY_KEY]) {
      for (const form of forms(secret)) expect(everything).not.toContain(form);
    }
    expect(everything).not.toMatch(/trace-1234|x-request-id|cookie|date:/i);

    rmSync(dir, { recursive: true });
    await record(dir);
    expect(filesOf(dir)).toEqual(first);
  });

  it('the harness passes against the recorded scenario, served offline', async () => {
    const dir = join(tmpDir(), 'offline');
    await record(dir);
    const mock = await startMock(['--scenarios', dir, '--scenario', 'recorded']);
    const run = await processes.node([CONTRACT_BIN, '--base-url', mock.url, '--api-key', MOCK_KEY, '--seed', '7'], { env: childEnv(), cwd: tmpDir() });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  });

  it('a request answered differently over time becomes a sequence of stubs, each for the calls that got its answer', async () => {
    // 400, 400, then created, then 400 again: the same body, refused while a rule of staging's was switched on.
    let calls = 0;
    const answers = [400, 400, 201, 400];
    const target: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const status = answers[Math.min(calls++, answers.length - 1)] as number;
        const body = status === 201 ? '{"id":7,"name":"Rex","categoryId":1}' : '{"code":"name_refused","message":"That name is not allowed now.","status":400}';
        res.writeHead(status, { 'content-type': 'application/json', 'x-trace-id': `t-${calls}`, ...(status === 400 ? { link: '</help/names>; rel="help"' } : {}) }).end(body);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closing.push(() => void target.close());
    const dir = join(tmpDir(), 'sequence');
    const mock = await startMock(['--proxy', `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`, '--record', dir]);
    const create = (url: string, key: string) => rawRequest(`${url}/pets`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
    for (let i = 0; i < 4; i++) await create(mock.url, 'client-key-of-staging');
    expect((await stop(mock)).code).toBe(0);

    const replay = await startMock(['--scenarios', dir, '--scenario', 'recorded']);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await create(replay.url, MOCK_KEY)).status);
    // As recorded, and the last answer from then on.
    expect(statuses).toEqual([400, 400, 201, 400, 400, 400]);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    expect(yaml).toContain('link: </help/names>; rel="help"');
    expect(yaml).not.toContain('x-trace-id');
  });

  it('answers about credentials are not recorded: replayed, a valid key gets the recorded answers, a keyless or wrong key the mock\'s own 401', async () => {
    const staging = await startReferenceServer({ apiKey: STAGING_KEY });
    closing.push(() => staging.close());
    const dir = join(tmpDir(), 'credentials');
    // No --upstream-key: the client's key goes on, as a single-page app's does.
    const mock = await startMock(['--proxy', staging.url, '--record', dir]);
    const valid = { authorization: `Bearer ${STAGING_KEY}` };
    const send = (url: string, path: string, headers: Record<string, string>, body?: string) =>
      rawRequest(`${url}${path}`, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    // Before the app's token is set, with a stale one, then signed in; the refusals among valid requests.
    const seen = [
      (await send(mock.url, '/pets', {})).status,
      (await send(mock.url, '/pets', { authorization: 'Bearer stale-token-Qw3Er5Ty7' })).status,
      (await send(mock.url, '/pets', valid, '{"name":"No category"}')).status,
      (await send(mock.url, '/pets', {}, '{"name":"No category"}')).status,
      (await send(mock.url, '/pets', valid)).status,
      (await send(mock.url, '/pets?limit=2', valid)).status,
    ];
    expect(seen).toEqual([401, 401, 400, 401, 200, 200]);
    expect((await stop(mock)).code).toBe(0);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    expect(yaml).toContain('left out: 3 about credentials');
    expect(yaml).not.toContain('401');
    expect(yaml).not.toContain('stale-token');

    const replay = await startMock(['--scenarios', dir, '--scenario', 'recorded']);
    const mine = { authorization: `Bearer ${MOCK_KEY}` };
    const list = await send(replay.url, '/pets', mine);
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body.toString('utf8')) as unknown[]).length).toBeGreaterThan(0);
    expect((await send(replay.url, '/pets', mine, '{"name":"No category"}')).status).toBe(400);
    expect((await send(replay.url, '/pets', {})).status).toBe(401);
    expect((await send(replay.url, '/pets', { authorization: 'Bearer stale-token-Qw3Er5Ty7' })).status).toBe(401);
    expect((await send(replay.url, '/pets', {}, '{"name":"No category"}')).status).toBe(401);
  });

  it('an answer that varies by a field no stub matches gives its animals, but no stub', async () => {
    const target: Server = createServer((req, res) => {
      const refused = req.url?.includes('limit=0');
      res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json', vary: 'Accept-Language, Accept-Encoding' });
      res.end(refused ? '{"code":"bad_limit","message":"limit est trop petit","status":400}' : '[{"id":4,"name":"Rex","categoryId":1}]');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closing.push(() => void target.close());
    const dir = join(tmpDir(), 'varied');
    const mock = await startMock(['--proxy', `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`, '--record', dir]);
    const headers = { authorization: 'Bearer client-key-of-staging', 'accept-language': 'fr' };
    expect((await rawRequest(`${mock.url}/pets?limit=0`, { headers })).status).toBe(400);
    expect((await rawRequest(`${mock.url}/pets?limit=1`, { headers })).status).toBe(200);
    expect((await stop(mock)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'recorded.pets.json'), 'utf8'))).toEqual([{ id: 4, name: 'Rex', categoryId: 1 }]);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    expect(yaml).not.toContain('bad_limit');
    expect(yaml).toContain('1 not singled out by a stub');
  });

  it('an answer that broke the contract is left out, and the file says how many were', async () => {
    // The edge upstream answers /v1/pets with a whole page, then with one whose animal's name is a number, in turn.
    const edge = await startEdgeUpstream();
    closing.push(() => edge.close());
    const dir = join(tmpDir(), 'laundering');
    const mock = await startMock(['--proxy', edge.url, '--record', dir]);
    for (let i = 0; i < 4; i++) await rawRequest(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer client-key-of-staging' } });
    expect((await stop(mock)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'recorded.pets.json'), 'utf8'))).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    expect(readFileSync(join(dir, 'recorded.yaml'), 'utf8')).toContain('left out: 2 broke the contract');
  });

  it('an answer that echoes a credential, in any encoding, is left out; the others are recorded', async () => {
    // Staging puts what it got into an animal's name: the key as sent, base64'd, percent-encoded, or a cookie's value.
    const echoes = [
      (auth: string) => auth,
      (auth: string) => Buffer.from(auth).toString('base64'),
      (auth: string) => encodeURIComponent(auth),
      () => 'cookie-value-Hk3Jd8Qp',
      () => 'Plain Name',
    ];
    let call = 0;
    const target: Server = createServer((req, res) => {
      const name = (echoes[call % echoes.length] as (auth: string) => string)(req.headers.authorization ?? '');
      call++;
      const body = JSON.stringify([{ id: call, name, categoryId: 1 }]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closing.push(() => void target.close());
    const dir = join(tmpDir(), 'echoes');
    const mock = await startMock(['--proxy', `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`, '--upstream-key', STAGING_KEY, '--record', dir]);
    for (let i = 0; i < echoes.length; i++) await rawRequest(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${MOCK_KEY}`, cookie: COOKIE } });
    expect((await stop(mock)).code).toBe(0);
    const everything = Object.values(filesOf(dir)).join('\n');
    for (const secret of [STAGING_KEY, 'cookie-value-Hk3Jd8Qp']) for (const form of forms(secret)) expect(everything).not.toContain(form);
    expect(JSON.parse(readFileSync(join(dir, 'recorded.pets.json'), 'utf8'))).toEqual([{ id: 5, name: 'Plain Name', categoryId: 1 }]);
    expect(everything).toContain('left out: 4 held a key');
  });

  /** A target refusing every createPet with 400, its Error made by `error` from the request's body. */
  async function refusing(error: (body: string) => string): Promise<string> {
    const target: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void res.writeHead(400, { 'content-type': 'application/json' }).end(error(Buffer.concat(chunks).toString('utf8'))));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    closing.push(() => void target.close());
    return `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`;
  }
  const createNamed = (mock: RunningMock, name: unknown) =>
    rawRequest(`${mock.url}/pets`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });

  it('past its bound of distinct requests, a recording says so in the log and the file, and the mock goes on', async () => {
    const target = await refusing(() => '{"code":"invalid_body","message":"no","status":400}');
    const dir = join(tmpDir(), 'bounded');
    const mock = await startMock(['--proxy', target, '--record', dir]);
    const total = RECORDING_LIMITS.requests + 5;
    for (let start = 1; start <= total; start += 25) {
      await Promise.all(Array.from({ length: Math.min(25, total - start + 1) }, (_, i) => createNamed(mock, `n${start + i}`)));
    }
    expect((await createNamed(mock, 'n1')).status).toBe(400);
    expect((await stop(mock)).code).toBe(0);
    expect(mock.stdout()).toContain(`the recording follows ${RECORDING_LIMITS.requests} distinct requests`);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    expect(yaml.match(/- id: recorded-createPet-/g)?.length).toBe(RECORDING_LIMITS.requests);
    expect(yaml).toContain('5 past a bound');
  }, 60_000);

  it('past its bound of bytes for all the stubs together, a recording says so in the log and the file, and the mock goes on', async () => {
    // Each error answer about 60 KiB, different for each request: 150 of them are past 8 MiB together, each under 64 KiB.
    const target = await refusing((body) => JSON.stringify({ code: 'invalid_body', message: `no ${'x'.repeat(60_000)} ${body}`, status: 400 }));
    const dir = join(tmpDir(), 'bounded-bytes');
    const mock = await startMock(['--proxy', target, '--record', dir]);
    const total = 150;
    for (let start = 1; start <= total; start += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, i) => createNamed(mock, `n${start + i}`)));
    }
    expect((await createNamed(mock, 'n1')).status).toBe(400);
    expect((await stop(mock)).code).toBe(0);
    expect(mock.stdout()).toContain(`the recording's stubs hold ${RECORDING_LIMITS.stubsBytes} bytes of JSON`);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    const stubs = yaml.match(/- id: recorded-createPet-/g)?.length ?? 0;
    expect(stubs * 60_000).toBeLessThanOrEqual(RECORDING_LIMITS.stubsBytes);
    expect(yaml).toContain(`${total - stubs} past a bound`);
  }, 60_000);

  it('nesting: an answer or a request past 32 levels is left out past a bound, one at 32 recorded, one past 512 (400,000) is passed on and left out as broken; the file loads', async () => {
    // An Error with an extra member making the body `depth` levels deep (the body itself is level 1).
    const extra = (depth: number): string => `${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`;
    const errorAt = (depth: number): string => `{"code":"invalid_body","message":"no","status":400,"extra":${extra(depth)}}`;
    const depthOf: Record<string, number> = { deep5: 400_000, deep6: 33, deep7: 32 };
    const target = await refusing((body) => {
      const depth = depthOf[String((JSON.parse(body) as { name: unknown }).name)];
      return depth === undefined ? '{"code":"invalid_body","message":"no","status":400}' : errorAt(depth);
    });
    const dir = join(tmpDir(), 'deep');
    const mock = await startMock(['--proxy', target, '--record', dir]);
    for (const name of ['deep5', 'deep6', 'deep7']) {
      const answer = await createNamed(mock, name);
      // Passed on as sent, whatever the recording does with it.
      expect([name, answer.status, answer.body.toString() === errorAt(depthOf[name] as number)]).toEqual([name, 400, true]);
    }
    // A createPet whose body is 40 levels deep (the match keeps its fields), then one of 2: only the second becomes a stub.
    expect((await createNamed(mock, JSON.parse(extra(39)) as unknown)).status).toBe(400);
    expect((await createNamed(mock, ['flat'])).status).toBe(400);
    expect((await stop(mock)).code).toBe(0);
    expect(mock.stdout()).toContain(`an answer or its request nested more than ${RECORDING_LIMITS.depth} deep is not recorded`);
    const yaml = readFileSync(join(dir, 'recorded.yaml'), 'utf8');
    expect(yaml).toContain('1 broke the contract');
    expect(yaml).toContain('2 past a bound');
    expect(yaml.match(/- id: recorded-createPet-/g)?.length, yaml).toBe(2);
    expect(yaml).toContain('equals: deep7');
    const loaded = loadScenario(contract, dir, 'recorded');
    expect(loaded.ok ? loaded.value.name : loaded.error).toBe('recorded');
  }, 60_000);

  it('the admin API stops and starts the recording: what came while it was stopped is not in the files', async () => {
    const staging = await startReferenceServer({ apiKey: STAGING_KEY });
    closing.push(() => staging.close());
    const dir = join(tmpDir(), 'toggled');
    const mock = await startMock(['--proxy', staging.url, '--upstream-key', STAGING_KEY, '--record', dir]);
    const origin = new URL(mock.url).origin;
    const call = async (method: string, path: string): Promise<Record<string, unknown>> => {
      const response = await fetch(`${origin}/__mock${path}`, { method, headers: { authorization: `Bearer ${MOCK_KEY}` } });
      const body = (await response.json()) as Record<string, unknown>;
      expect(admin(method, `/__mock${path}`, response.status, body)).toBeUndefined();
      return body;
    };
    const get = (path: string) => rawRequest(`${mock.url}${path}`, { headers: { authorization: `Bearer ${MOCK_KEY}` } });
    expect(await call('GET', '/recording')).toEqual({ active: true, dir, scenario: 'recorded', animals: 0, stubs: 0 });
    await get('/pets/1');
    expect(await call('POST', '/recording/stop')).toMatchObject({ active: false, animals: 1 });
    const ids = () => (JSON.parse(readFileSync(join(dir, 'recorded.pets.json'), 'utf8')) as Array<{ id: number }>).map((pet) => pet.id);
    expect(ids()).toEqual([1]);
    await get('/pets/2');
    expect(await call('POST', '/recording/start')).toMatchObject({ active: true, animals: 1 });
    await get('/pets/3');
    expect((await stop(mock)).code).toBe(0);
    expect(ids()).toEqual([1, 3]);
  });

  it('without --record, the recording routes are a 404 that says how to start one', async () => {
    const mock = await startMock([]);
    const response = await fetch(`${new URL(mock.url).origin}/__mock/recording/start`, { method: 'POST', headers: { authorization: `Bearer ${MOCK_KEY}` } });
    const body = (await response.json()) as Record<string, unknown>;
    expect(admin('POST', '/__mock/recording/start', response.status, body)).toBeUndefined();
    expect(body).toMatchObject({ code: 'route_not_found', status: 404 });
    expect(body.message).toContain('--record DIR');
  });
});
