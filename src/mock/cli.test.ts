import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { packageRoot } from '../contract/package-root.js';
import { DEFAULT_API_KEY } from './cli-options.js';
import { expectErrorBody, parseResponses, rawExchange } from '../../test/support/raw-http.js';

/**
 * The `animal-store-mock` command as users run it: the built bin in a child
 * process, over real HTTP on ephemeral ports.
 */
const BIN = join(packageRoot(), 'dist', 'src', 'mock', 'bin.js');
const BANNER = /Animal Store mock listening on (http:\/\/[^\s"]+\/v1)/;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface MockProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles once the process has exited and its output is read to the end. */
  exited: Promise<Exit>;
}

interface RunningMock extends MockProcess {
  url: string;
  banner: string;
}

const children = new Set<MockProcess>();
let tmp: string;

beforeAll(() => {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: these tests run the built CLI. Run \`npm run build\` first (\`npm test\` does).`);
  }
  tmp = mkdtempSync(join(tmpdir(), 'animal-store-cli-'));
});

afterEach(async () => {
  // Whatever a test left running is stopped, even when it failed.
  await Promise.all(
    [...children].map(async (mock) => {
      if (mock.child.exitCode === null && mock.child.signalCode === null) mock.child.kill('SIGKILL');
      await mock.exited;
    }),
  );
  children.clear();
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Runs the bin with only the variables given (PORT, HOST and MOCK_API_KEYS of the test runner do not leak in). */
function spawnMock(args: string[], env: Record<string, string> = {}): MockProcess {
  const base = { ...process.env };
  delete base.PORT;
  delete base.HOST;
  delete base.MOCK_API_KEYS;
  delete base.MOCK_ADMIN_KEY;
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const mock = { child, stdout: () => out, stderr: () => err, exited };
  children.add(mock);
  return mock;
}

/** Starts the mock and waits for its banner; fails with its output if it exits instead. */
async function startMock(args: string[] = [], env: Record<string, string> = {}): Promise<RunningMock> {
  // The readable banner unless a case asks for JSON logs (the default when stdout is a pipe).
  const withFormat = args.includes('--log-format') ? args : ['--log-format', 'pretty', ...args];
  const mock = spawnMock(withFormat.includes('--port') || 'PORT' in env ? withFormat : ['--port', '0', ...withFormat], env);
  const banner = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      // The banner is written in one piece; wait for its last line (or the JSON start-up line).
      if (BANNER.test(mock.stdout()) && /(Try: .*|"curl":.*)\n/.test(mock.stdout())) resolve(mock.stdout());
    };
    mock.child.stdout?.on('data', check);
    void mock.exited.then((exit) =>
      reject(new Error(`the mock exited (${JSON.stringify(exit)}) before listening\nstdout: ${mock.stdout()}\nstderr: ${mock.stderr()}`)),
    );
  });
  return { ...mock, url: (BANNER.exec(banner) as RegExpExecArray)[1] as string, banner };
}

/** Runs the bin to its end, for the cases that must not start; fails if it starts listening. */
async function runToExit(args: string[], env: Record<string, string> = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const mock = spawnMock(args, env);
  mock.child.stdout?.on('data', () => {
    if (BANNER.test(mock.stdout())) mock.child.kill('SIGKILL');
  });
  const exit = await mock.exited;
  if (BANNER.test(mock.stdout())) throw new Error(`expected ${args.join(' ')} not to start, but it listened:\n${mock.stdout()}`);
  return { ...exit, stdout: mock.stdout(), stderr: mock.stderr() };
}

/** Sends a signal and waits for the exit. */
async function stop(mock: MockProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
  mock.child.kill(signal);
  return mock.exited;
}

const bearer = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });

async function getJson(url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, bearer(key));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function statusWith(mock: RunningMock, key: string | undefined): Promise<number> {
  const response = await fetch(`${mock.url}/pets?limit=1`, key === undefined ? {} : bearer(key));
  await response.arrayBuffer();
  return response.status;
}

/** Writes a fixture file in the test's temp folder. */
function fixture(name: string, text: string): string {
  const file = join(tmp, name);
  writeFileSync(file, text);
  return file;
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const closeServer = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** A port that was free a moment ago: listen on 0, read the port, close. */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await closeServer(server);
  return port;
}

/** The per-request log lines among the JSON lines on stdout. */
function requestLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => 'method' in line);
}

describe('animal-store-mock (the built CLI)', () => {
  describe('the start-up banner', () => {
    it('shows the base URL, the default key and a curl line that works as written', async () => {
      const mock = await startMock();
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(mock.banner).toContain(`API key:   ${DEFAULT_API_KEY} (the default`);
      expect(DEFAULT_API_KEY).toBe('animal-store-dev-key');
      expect(mock.banner).toMatch(/Catalogue: 30 pets from .*fixtures[/\\]pets\.json/);

      // Do what the curl line says: its URL, its header.
      const curl = /curl -H '([^']+)' '([^']+)'/.exec(mock.banner);
      expect(curl, 'a curl line in the banner').not.toBeNull();
      const [, header, url] = curl as unknown as [string, string, string];
      expect(header).toBe(`Authorization: Bearer ${DEFAULT_API_KEY}`);
      expect(url.startsWith(`${mock.url}/pets`)).toBe(true);
      const separator = header.indexOf(': ');
      const response = await fetch(url, { headers: { [header.slice(0, separator)]: header.slice(separator + 2) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const pets = (await response.json()) as unknown[];
      expect(Array.isArray(pets)).toBe(true);
      // The curl line asks for ?limit=5; with no limit the default page is 20 of the 30.
      expect(pets).toHaveLength(Number(new URL(url).searchParams.get('limit') ?? 20));

      const page = await getJson(`${mock.url}/pets`, DEFAULT_API_KEY);
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(20);
      expect((page.body as Array<{ id: number }>).map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toHaveLength(30);
    });
  });

  describe('API keys', () => {
    it('accepts every --api-key given, and no longer the default key', async () => {
      const mock = await startMock(['--api-key', 'a', '--api-key', 'b']);
      expect(mock.banner).toContain('API key:   a (and 1 more) (--api-key)');
      expect(mock.banner).toContain("curl -H 'Authorization: Bearer a'");
      expect(await statusWith(mock, 'a')).toBe(200);
      expect(await statusWith(mock, 'b')).toBe(200);
      expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
      expect(await statusWith(mock, 'ab')).toBe(401);
      expect(await statusWith(mock, undefined)).toBe(401);
    });

    it('accepts the comma-separated keys of MOCK_API_KEYS, spaces trimmed', async () => {
      const mock = await startMock([], { MOCK_API_KEYS: 'x, y' });
      expect(mock.banner).toContain('API key:   x (and 1 more) (MOCK_API_KEYS)');
      expect(await statusWith(mock, 'x')).toBe(200);
      expect(await statusWith(mock, 'y')).toBe(200);
      expect(await statusWith(mock, 'x, y')).toBe(401);
      expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
    });

    it('lets --api-key win over MOCK_API_KEYS', async () => {
      const mock = await startMock(['--api-key', 'from-flag'], { MOCK_API_KEYS: 'from-env,other-env' });
      expect(mock.banner).toContain('API key:   from-flag (--api-key)');
      expect(await statusWith(mock, 'from-flag')).toBe(200);
      expect(await statusWith(mock, 'from-env')).toBe(401);
      expect(await statusWith(mock, 'other-env')).toBe(401);
      expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(401);
    });

    it('falls back to the default key when MOCK_API_KEYS holds only commas and spaces', async () => {
      const mock = await startMock([], { MOCK_API_KEYS: ' , ,' });
      expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
    });
  });

  describe('the admin API', () => {
    const adminStatus = async (mock: RunningMock, key?: string): Promise<number> => {
      const response = await fetch(`${mock.url.replace(/\/v1$/, '')}/__mock/health`, key === undefined ? {} : bearer(key));
      await response.arrayBuffer();
      return response.status;
    };
    const OPEN_ADMIN = /admin API \(\/__mock\) has no admin key: anyone who can reach port \d+ can/;

    it('--admin-key requires that key on /__mock, and is no API key', async () => {
      const mock = await startMock(['--admin-key', 'admin-1']);
      expect(await adminStatus(mock)).toBe(401);
      expect(await adminStatus(mock, 'wrong')).toBe(401);
      expect(await adminStatus(mock, DEFAULT_API_KEY)).toBe(401);
      expect(await adminStatus(mock, 'admin-1')).toBe(200);
      expect(await statusWith(mock, 'admin-1')).toBe(401);
    });

    it('takes the key from MOCK_ADMIN_KEY; --admin-key wins over it', async () => {
      const fromEnv = await startMock([], { MOCK_ADMIN_KEY: 'env-admin' });
      expect(await adminStatus(fromEnv)).toBe(401);
      expect(await adminStatus(fromEnv, 'env-admin')).toBe(200);
      const fromFlag = await startMock(['--admin-key', 'flag-admin'], { MOCK_ADMIN_KEY: 'env-admin' });
      expect(await adminStatus(fromFlag, 'env-admin')).toBe(401);
      expect(await adminStatus(fromFlag, 'flag-admin')).toBe(200);
    });

    it('warns once at start-up when bound beyond loopback without an admin key, naming how to set one', async () => {
      const mock = await startMock(['--host', '0.0.0.0']);
      await vi.waitFor(() => expect(mock.stdout()).toMatch(OPEN_ADMIN), { timeout: 5000, interval: 20 });
      const warnings = mock.stdout().split('\n').filter((line) => OPEN_ADMIN.test(line));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('WARN');
      expect(warnings[0]).toContain('--admin-key KEY (or MOCK_ADMIN_KEY)');
      expect(warnings[0]).toContain('0.0.0.0');
    });

    it('writes that warning as a JSON line with --log-format json, every line JSON', async () => {
      const mock = await startMock(['--host', '0.0.0.0', '--log-format', 'json']);
      await vi.waitFor(() => expect(mock.stdout()).toMatch(OPEN_ADMIN), { timeout: 5000, interval: 20 });
      const lines = mock.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.filter((line) => OPEN_ADMIN.test(line.msg))).toEqual([expect.objectContaining({ level: 40, host: '0.0.0.0' })]);
    });

    it('gives no such warning on loopback, nor with an admin key', async () => {
      const loopback = await startMock(['--log-format', 'json']);
      const keyed = await startMock(['--host', '0.0.0.0', '--admin-key', 'admin-2', '--log-format', 'json']);
      // A request line after start-up: anything written at start-up is written by then.
      for (const mock of [loopback, keyed]) {
        await statusWith(mock, DEFAULT_API_KEY);
        await vi.waitFor(() => expect(mock.stdout()).toContain('"method":"GET"'), { timeout: 5000, interval: 20 });
        expect(mock.stdout()).not.toMatch(/admin key/);
        expect(mock.stdout()).not.toMatch(/heap limit/);
      }
    });

    it('warns once when the flags let clients make it hold more than node\'s heap, naming the largest part', async () => {
      const mock = await startMock(['--journal-size', '10000', '--max-sessions', '100000', '--log-format', 'json']);
      await vi.waitFor(() => expect(mock.stdout()).toMatch(/heap limit/), { timeout: 5000, interval: 20 });
      const lines = mock.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; ceilingBytes?: number; heapLimitBytes?: number });
      const [warning, ...more] = lines.filter((line) => /heap limit/.test(line.msg));
      expect(more).toEqual([]);
      expect(warning).toMatchObject({ level: 40 });
      expect(warning?.ceilingBytes).toBeGreaterThan(warning?.heapLimitBytes ?? Infinity);
      expect(warning?.msg).toContain('--journal-size');
      expect(warning?.msg).toContain('--max-old-space-size');
    });
  });

  describe('the port', () => {
    it('honours PORT when --port is absent', async () => {
      const port = await freePort();
      const mock = await startMock([], { PORT: String(port) });
      expect(mock.url).toBe(`http://127.0.0.1:${port}/v1`);
      expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
    });

    it('lets --port win over PORT', async () => {
      const taken = createServer();
      const port = await listen(taken);
      try {
        // PORT names a port in use: the mock starts only if it ignores it.
        const mock = await startMock(['--port', '0'], { PORT: String(port) });
        expect(mock.url).not.toBe(`http://127.0.0.1:${port}/v1`);
      } finally {
        await closeServer(taken);
      }
    });

    it('exits with 1 and says so when the port is already in use', async () => {
      const taken = createServer();
      const port = await listen(taken);
      try {
        const result = await runToExit(['--port', String(port)]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      } finally {
        await closeServer(taken);
      }
    });
  });

  describe('the catalogue', () => {
    it('--seed gives the same catalogue for the same seed and another for another seed', async () => {
      const [first, second, other] = await Promise.all([startMock(['--seed', '7']), startMock(['--seed', '7']), startMock(['--seed', '8'])]);
      expect(first.banner).toContain('Catalogue: 30 pets from faker, seed 7');
      const [a, b, c] = await Promise.all([first, second, other].map((mock) => getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)));
      expect(a?.status).toBe(200);
      expect(a?.body).toHaveLength(30);
      expect(b?.body).toEqual(a?.body);
      expect(c?.body).toHaveLength(30);
      expect(c?.body).not.toEqual(a?.body);
    });

    it('--fixtures serves exactly the pets of a JSON file', async () => {
      const pets = [
        { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
        { id: 2, name: 'Bruno', categoryId: 2 },
        { id: 5, name: 'Luna', categoryId: 1, status: 'sold' },
      ];
      const file = fixture('three.json', JSON.stringify(pets));
      const mock = await startMock(['--fixtures', file]);
      expect(mock.banner).toContain(`Catalogue: 3 pets from ${file}`);
      expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual(pets);
      expect((await getJson(`${mock.url}/pets?status=sold`, DEFAULT_API_KEY)).body).toEqual([pets[2]]);
    });

    it('--fixtures serves a YAML file too', async () => {
      const file = fixture('two.yaml', '- id: 1\n  name: Milo\n  categoryId: 3\n  status: pending\n- id: 2\n  name: Bruno\n  categoryId: 2\n');
      const mock = await startMock(['--fixtures', file]);
      expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual([
        { id: 1, name: 'Milo', categoryId: 3, status: 'pending' },
        { id: 2, name: 'Bruno', categoryId: 2 },
      ]);
    });

    it('--fixtures wins over --seed', async () => {
      const file = fixture('one.json', JSON.stringify([{ id: 1, name: 'Solo', categoryId: 1 }]));
      const mock = await startMock(['--seed', '7', '--fixtures', file]);
      expect((await getJson(`${mock.url}/pets?limit=100`, DEFAULT_API_KEY)).body).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }]);
    });
  });

  describe('scenarios', () => {
    it('starts in the default scenario, and says so on a line of its own between Catalogue and Try', async () => {
      const mock = await startMock();
      const lines = mock.banner.trimEnd().split('\n');
      expect(lines[0]).toBe(`Animal Store mock listening on ${mock.url}`);
      expect(lines.at(-2)).toMatch(/^  Scenario:  default \(scenarios[/\\]default\.yaml\): The realistic catalogue/);
      expect(lines.at(-1)).toMatch(/^  Try: {7}curl /);
    });

    it('--scenario flaky: every third request gets 503 with Retry-After', async () => {
      const mock = await startMock(['--scenario', 'flaky']);
      expect(mock.banner).toMatch(/Scenario: {2}flaky \(scenarios[/\\]flaky\.yaml\): Every third request gets 503/);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push(await statusWith(mock, DEFAULT_API_KEY));
      expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
    });

    it('--log-format json names the scenario in the start-up line', async () => {
      const mock = await startMock(['--log-format', 'json', '--scenario', 'sold-out']);
      const started = JSON.parse(mock.stdout().split('\n')[0] as string) as Record<string, unknown>;
      expect(started).toMatchObject({ scenario: 'sold-out', scenarioDescription: expect.stringContaining('every one sold') });
      expect(started.scenarioFile).toMatch(/scenarios[/\\]sold-out\.yaml$/);
      expect(started.catalogue).toMatch(/^30 pets from faker, seed 1, status mix sold 1 \(loaded in \d+ ms\)$/);
    });

    it('serves the scenario\'s catalogue: large-catalogue has 10,000 animals', async () => {
      const mock = await startMock(['--scenario', 'large-catalogue']);
      expect(mock.banner).toContain('Catalogue: 10000 pets from faker, seed 1');
      expect((await getJson(`${mock.url}/pets/10000`, DEFAULT_API_KEY)).status).toBe(200);
    });

    it('starts with a 250,000-animal fixture, says how long loading took, and pages a rare status from its start', { timeout: 60_000 }, async () => {
      // Spreading a catalogue this size into one call overflowed the call stack.
      const pets = Array.from({ length: 250_000 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 6) + 1, status: (i + 1) % 50_000 === 0 ? 'sold' : 'available' }));
      const file = fixture('quarter-million.json', JSON.stringify(pets));
      const mock = await startMock(['--fixtures', file]);
      expect(mock.banner).toMatch(new RegExp(`Catalogue: 250000 pets from ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(loaded in \\d+ ms\\)`));
      const sold = await getJson(`${mock.url}/pets?status=sold&limit=100`, DEFAULT_API_KEY);
      expect(sold.body.map((pet: { id: number }) => pet.id)).toEqual([50_000, 100_000, 150_000, 200_000, 250_000]);
      expect((await getJson(`${mock.url}/pets/249999`, DEFAULT_API_KEY)).body).toEqual({ id: 249_999, name: 'Pet 249999', categoryId: (249_998 % 6) + 1, status: 'available' });
    });

    it('--fixtures and --seed replace the scenario\'s catalogue; its stubs still answer', async () => {
      const file = fixture('two-for-scenario.json', JSON.stringify([{ id: 1, name: 'Solo', categoryId: 1 }, { id: 2, name: 'Duo', categoryId: 2 }]));
      const withFixture = await startMock(['--scenario', 'not-found', '--fixtures', file]);
      expect(withFixture.banner).toContain(`Catalogue: 2 pets from ${file}`);
      expect((await getJson(`${withFixture.url}/pets`, DEFAULT_API_KEY)).body).toHaveLength(2);
      expect((await getJson(`${withFixture.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
      const withSeed = await startMock(['--scenario', 'large-catalogue', '--seed', '7']);
      expect(withSeed.banner).toContain('Catalogue: 30 pets from faker, seed 7');
    });

    it('--scenarios DIR reads scenarios from another folder', async () => {
      const dir = join(tmp, 'own-scenarios');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'teapot-free.yaml'), [
        'name: teapot-free',
        'description: getPet 42 is gone',
        'catalogue: { fixture: fixtures/pets.json }',
        'stubs:',
        '  - match: { operation: getPet }',
        '    response: { status: 404, body: { code: pet_not_found, message: gone, status: 404 } }',
        '',
      ].join('\n'));
      const mock = await startMock(['--scenarios', dir, '--scenario', 'teapot-free']);
      expect(mock.banner).toContain(`Scenario:  teapot-free (${join(dir, 'teapot-free.yaml')}): getPet 42 is gone`);
      expect((await getJson(`${mock.url}/pets/1`, DEFAULT_API_KEY)).body).toEqual({ code: 'pet_not_found', message: 'gone', status: 404 });
    });

    it('reloads the active scenario file when it is edited, and not with --no-watch', async () => {
      const dir = join(tmp, 'watched-scenarios');
      mkdirSync(dir, { recursive: true });
      const scenario = (status: number) => [
        'name: watched',
        'description: getPet answers from the file',
        'catalogue: { fixture: fixtures/pets.json }',
        'stubs:',
        '  - match: { operation: getPet }',
        `    response: { status: ${status}, body: ${status === 404 ? '{ code: pet_not_found, message: gone, status: 404 }' : '{ id: 7, name: Edited, categoryId: 1 }'} }`,
        '',
      ].join('\n');
      writeFileSync(join(dir, 'watched.yaml'), scenario(404));
      const watching = await startMock(['--scenarios', dir, '--scenario', 'watched']);
      const still = await startMock(['--scenarios', dir, '--scenario', 'watched', '--no-watch']);
      expect((await getJson(`${watching.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
      writeFileSync(join(dir, 'watched.yaml'), scenario(200));
      await vi.waitFor(async () => expect((await getJson(`${watching.url}/pets/1`, DEFAULT_API_KEY)).body.name).toBe('Edited'), { timeout: 10_000, interval: 50 });
      expect((await getJson(`${still.url}/pets/1`, DEFAULT_API_KEY)).status).toBe(404);
      const health = await (await fetch(`${watching.url.replace(/\/v1$/, '')}/__mock/health`)).json();
      expect(health).toEqual({ status: 'ok', session: null, scenario: 'watched', pets: 30 });
    });

    it('--journal-size, --max-sessions and --session-per-key shape the admin API\'s journal and sessions', async () => {
      const mock = await startMock(['--journal-size', '2', '--max-sessions', '3', '--session-idle', '60', '--session-per-key']);
      const origin = mock.url.replace(/\/v1$/, '');
      for (let i = 0; i < 3; i++) expect(await statusWith(mock, DEFAULT_API_KEY)).toBe(200);
      const health = (await (await fetch(`${origin}/__mock/health`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).json()) as { session: string };
      expect(health.session).toMatch(/^key-[0-9a-f]{16}$/);
      // A key's session is read with that key (with its id alone: 403).
      const keyed = { authorization: `Bearer ${DEFAULT_API_KEY}` };
      expect((await fetch(`${origin}/__mock/journal`, { headers: { 'x-mock-session': health.session } })).status).toBe(403);
      const journal = (await (await fetch(`${origin}/__mock/journal`, { headers: keyed })).json()) as { capacity: number; entries: unknown[] };
      expect(journal.capacity).toBe(2);
      expect(journal.entries).toHaveLength(2);
      const statuses: number[] = [];
      for (const id of ['s1', 's2', 's3']) statuses.push((await fetch(`${mock.url}/pets`, { headers: { ...keyed, 'x-mock-session': id } })).status);
      // The key's session, s1 and s2 fill the table; all were used in the last minute, so s3 is refused rather than one of them ended.
      expect(statuses).toEqual([200, 200, 503]);
      const sessions = (await (await fetch(`${origin}/__mock/sessions`, { headers: keyed })).json()) as { maxSessions: number; idleSeconds: number; sessions: Array<{ id: string }> };
      expect(sessions).toMatchObject({ maxSessions: 3, idleSeconds: 60 });
      expect(sessions.sessions.map((s) => s.id)).toEqual([health.session, 's1', 's2']);
    });

    it('--max-pets and --max-catalogue-bytes bound what each session adds: 507 catalogue_full naming the flag', async () => {
      const create = async (base: string, name: string, session?: string) =>
        fetch(`${base}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json', ...(session ? { 'x-mock-session': session } : {}) },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
      const byCount = await startMock(['--max-pets', '2']);
      for (const expected of [201, 201, 507]) expect((await create(byCount.url, 'Rex')).status).toBe(expected);
      const refused = await create(byCount.url, 'Rex');
      expect(await refused.json()).toMatchObject({ code: 'catalogue_full', status: 507, message: expect.stringContaining('--max-pets') });
      expect((await create(byCount.url, 'Rex', 'other')).status).toBe(201);
      // 200 bytes hold two animals named with 50 characters (about 90 bytes of JSON each), not three.
      const byBytes = await startMock(['--max-catalogue-bytes', '200']);
      for (const expected of [201, 201, 507]) expect((await create(byBytes.url, 'n'.repeat(50))).status).toBe(expected);
      const full = (await (await create(byBytes.url, 'n'.repeat(50))).json()) as { message: string };
      expect(full.message).toContain('--max-catalogue-bytes');
    });

    it('--max-connections bounds the connections served at once: one more gets 503 with an Error body', async () => {
      const mock = await startMock(['--max-connections', '1']);
      const { port } = new URL(mock.url);
      const held = connect(Number(port), '127.0.0.1');
      // Served: the held connection's answer has come, so the server counts it.
      await new Promise((resolve) => held.once('data', resolve).write(`GET /__mock/health HTTP/1.1\r\nHost: localhost\r\n\r\n`));
      const over = await rawExchange(Number(port), 'GET /__mock/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [response] = parseResponses(over.bytes);
      expect(response?.status).toBe(503);
      expectErrorBody(response!, 'too_many_connections');
      expect(JSON.parse(String(response?.body)).message).toContain('--max-connections');
      held.destroy();
    });

    it('an unknown scenario stops start-up with exit code 2, naming the known ones', async () => {
      const result = await runToExit(['--port', '0', '--scenario', 'nope']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/animal-store-mock: unknown scenario "nope" in scenarios \(known: after-sunset, auth-rejected, default, /);
    });

    it('an invalid scenario file stops start-up with exit code 2, naming the file, the JSON path and the reason', async () => {
      const dir = join(tmp, 'bad-scenarios');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'lost.yaml');
      writeFileSync(file, [
        'name: lost',
        'description: a getPet stub whose Pet breaks the document',
        'catalogue: { fixture: fixtures/pets.json }',
        'stubs:',
        '  - match: { operation: getPet }',
        '    response: { status: 200, body: { id: 1, name: Rex, categoryId: 2, status: lost } }',
        '',
      ].join('\n'));
      const result = await runToExit(['--port', '0', '--scenarios', dir, '--scenario', 'lost']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`animal-store-mock: invalid scenario ${file}: $.stubs[0].response.body.status must be one of available, pending, sold\n`);
    });

    it('a scenario whose fixture cannot be read stops start-up with exit code 2', async () => {
      const dir = join(tmp, 'no-fixture');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'ghost.yaml');
      writeFileSync(file, 'name: ghost\ndescription: x\ncatalogue: { fixture: fixtures/ghost.json }\nstubs: []\n');
      const result = await runToExit(['--port', '0', '--scenarios', dir, '--scenario', 'ghost']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`animal-store-mock: invalid scenario ${file}: $.catalogue.fixture is not a usable catalogue: `);
    });

    it('a scenarios folder that does not exist stops start-up with exit code 2', async () => {
      const result = await runToExit(['--port', '0', '--scenarios', join(tmp, 'nowhere')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`animal-store-mock: cannot read the scenarios folder ${join(tmp, 'nowhere')}: ENOENT`);
    });
  });

  describe('an invalid fixture stops start-up with exit code 2, naming the file, the JSON path and the reason', () => {
    it.each([
      [
        'a status outside the enum',
        'status.json',
        JSON.stringify([
          { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
          { id: 2, name: 'Bruno', categoryId: 2, status: 'lost' },
        ]),
        '$[1].status must be one of available, pending, sold',
      ],
      ['an object instead of an array', 'object.json', JSON.stringify({ id: 1, name: 'Milo', categoryId: 3 }), '$ must be an array'],
      ['a missing categoryId', 'no-category.json', JSON.stringify([{ id: 1, name: 'Milo' }]), '$[0].categoryId is required'],
      [
        'duplicate ids',
        'duplicates.json',
        JSON.stringify([
          { id: 1, name: 'Milo', categoryId: 3 },
          { id: 1, name: 'Bruno', categoryId: 2 },
        ]),
        '$[1].id 1 is used twice',
      ],
      ['a status outside the enum, in YAML', 'status.yaml', '- id: 1\n  name: Milo\n  categoryId: 3\n  status: lost\n', '$[0].status must be one of available, pending, sold'],
    ])('%s', async (_, name, text, reason) => {
      const file = fixture(name, text);
      const result = await runToExit(['--port', '0', '--fixtures', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid fixture ${file}: ${reason}`);
    });

    it('a file that is neither JSON nor YAML', async () => {
      const file = fixture('broken.json', '[{"id": 1, "name": "Milo",');
      const result = await runToExit(['--port', '0', '--fixtures', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid fixture ${file}: cannot be read as JSON or YAML`);
    });

    it('a file that does not exist', async () => {
      const file = join(tmp, 'no-such-file.json');
      const result = await runToExit(['--port', '0', '--fixtures', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid fixture ${file}: cannot be read`);
    });
  });

  describe('a broken --contract document', () => {
    it('stops start-up with exit code 2 when a schema cannot be compiled (an unknown type)', async () => {
      const document = readFileSync(join(packageRoot(), 'openapi', 'animal-store.yaml'), 'utf8').replace('type: string', 'type: strin');
      const result = await runToExit(['--port', '0', '--contract', fixture('bad-type.yaml', document)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('type must be JSONType or JSONType[]: strin');
    });
  });

  describe('bad usage exits with 2 and a message', () => {
    it.each([
      [['--bogus'], "Unknown option '--bogus'"],
      [['extra'], "Unexpected argument 'extra'"],
      [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
      [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
      [['--port', '65536'], '--port must be an integer from 0 to 65535, got "65536"'],
      [['--port=-1'], '--port must be an integer from 0 to 65535, got "-1"'],
      [['--port', '1.5'], '--port must be an integer from 0 to 65535, got "1.5"'],
      [['--port', ''], '--port must be an integer from 0 to 65535'],
      [['--port'], "Option '--port <value>' argument missing"],
      [['--seed', '-1'], "Option '--seed' argument is ambiguous"],
      [['--seed=-1'], '--seed must be a whole number from 0 to 4294967295, got -1'],
      [['--seed', 'abc'], '--seed must be a whole number from 0 to 4294967295, got abc'],
      [['--seed', '4294967296'], '--seed must be a whole number from 0 to 4294967295, got 4294967296'],
      [['--log-format', 'xml'], '--log-format must be pretty or json, got xml'],
      [['--api-key', 'has space'], 'API key "has space" cannot be sent as a bearer token'],
      [['--api-key', 'ok', '--api-key', 'bad"quote'], 'API key "bad\\"quote" cannot be sent as a bearer token'],
      [['--journal-size', '0'], '--journal-size must be a whole number from 1 to 10000, got "0"'],
      [['--journal-size', 'lots'], '--journal-size must be a whole number from 1 to 10000, got "lots"'],
      [['--journal-size', '10001'], '--journal-size must be a whole number from 1 to 10000, got "10001"'],
      [['--max-pets', '0'], '--max-pets must be a whole number from 1 to 1000000, got "0"'],
      [['--max-pets=-5'], '--max-pets must be a whole number from 1 to 1000000, got "-5"'],
      [['--max-pets', 'many'], '--max-pets must be a whole number from 1 to 1000000, got "many"'],
      [['--max-pets', '1000001'], '--max-pets must be a whole number from 1 to 1000000, got "1000001"'],
      [['--max-catalogue-bytes', '0'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "0"'],
      [['--max-catalogue-bytes', '2MiB'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "2MiB"'],
      [['--max-catalogue-bytes', '1073741825'], '--max-catalogue-bytes must be a whole number from 1 to 1073741824, got "1073741825"'],
      [['--max-sessions', '2.5'], '--max-sessions must be a whole number from 1 to 100000, got "2.5"'],
      [['--max-sessions', '100001'], '--max-sessions must be a whole number from 1 to 100000, got "100001"'],
      [['--session-idle', '0'], '--session-idle must be a whole number from 1 to 604800, got "0"'],
      [['--session-per-key=yes'], "Option '--session-per-key' does not take an argument"],
      [['--admin-key', 'has space'], '--admin-key "has space" cannot be sent as a bearer token'],
      [['--admin-key', DEFAULT_API_KEY], '--admin-key must not be one of the API keys'],
      [['--api-key', 'k', '--admin-key', 'k'], '--admin-key must not be one of the API keys'],
      [['--max-connections', '0'], '--max-connections must be a whole number from 1 to 100000, got "0"'],
      [['--max-connections', '100001'], '--max-connections must be a whole number from 1 to 100000, got "100001"'],
    ])('%j', async (args, message) => {
      // --port 0 where the case is not about the port, so a regression that starts cannot clash.
      const result = await runToExit(args.some((arg) => arg.startsWith('--port')) ? args : ['--port', '0', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`animal-store-mock: ${message}`);
      expect(result.stderr).toContain('animal-store-mock --help');
    });

    it.each([
      [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
      [{ PORT: '99999' }, 'PORT must be an integer from 0 to 65535, got "99999"'],
      [{ MOCK_API_KEYS: 'good, has space' }, 'API key "has space" cannot be sent as a bearer token'],
      [{ MOCK_ADMIN_KEY: 'bad"key' }, 'MOCK_ADMIN_KEY "bad\\"key" cannot be sent as a bearer token'],
    ])('environment %j', async (env, message) => {
      const result = await runToExit('PORT' in env ? [] : ['--port', '0'], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });
  });

  describe('--help and --version', () => {
    it.each([['--help'], ['-h']])('%s prints the usage and exits with 0', async (flag) => {
      const result = await runToExit([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: animal-store-mock [options]');
      for (const option of ['--port', '--host', '--api-key', '--admin-key', '--scenario', '--scenarios', '--seed', '--fixtures', '--log-format', '--quiet', '--help']) {
        expect(result.stdout).toContain(option);
      }
      expect(result.stderr).toBe('');
    });

    it('--help wins over other flags, even bad ones', async () => {
      const result = await runToExit(['--port', 'abc', '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: animal-store-mock');
    });

    it('--version prints the package version and exits with 0', async () => {
      const result = await runToExit(['--version']);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    });
  });

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

    it('--log-format json writes start-up as one JSON line too, with the URL, key and curl line', async () => {
      const mock = await startMock(['--log-format', 'json']);
      const lines = mock.stdout().split('\n').filter(Boolean);
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      const started = JSON.parse(lines[0] as string) as Record<string, unknown>;
      expect(started).toMatchObject({ msg: `Animal Store mock listening on ${mock.url}`, url: mock.url, apiKey: DEFAULT_API_KEY });
      expect(started.curl).toBe(`curl -H 'Authorization: Bearer ${DEFAULT_API_KEY}' '${mock.url}/pets?limit=5'`);
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
});
