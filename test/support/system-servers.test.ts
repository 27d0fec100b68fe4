import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { childEnv, Processes, type Run } from './processes.js';
import { CHROMIUM, missingLine, NGINX, PODMAN, REDIS, serverRequired, SYSTEM_SERVERS } from './system-servers.js';

// The test command as a developer runs it, on a PATH with or without the servers: vitest itself in a child process.
const VITEST = join(packageRoot(), 'node_modules', 'vitest', 'vitest.mjs');
const processes = new Processes();
const REQUIRE_VARIABLES = ['MOCK_REQUIRE_SERVERS', 'MOCK_REQUIRE_REDIS'];
// A fast test file that needs no server; its 3 tests are what "the rest passes" counts.
const PLAIN_TEST = 'test/support/find-command.test.ts';
let root: string;
/** A PATH folder holding stand-ins for the servers named (only their presence is read when the projects are chosen; `list` starts none). */
const pathWith = (...servers: string[]): string => join(root, servers.join('+') || 'none');
const ALL = SYSTEM_SERVERS.map((server) => server.command);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'animal-store-servers-path-'));
  for (const servers of [[], [REDIS.command], [NGINX.command], [REDIS.command, CHROMIUM.command, PODMAN.command], ALL]) {
    mkdirSync(pathWith(...servers));
    for (const command of servers) {
      writeFileSync(join(pathWith(...servers), command), '#!/bin/sh\nexit 1\n');
      chmodSync(join(pathWith(...servers), command), 0o755);
    }
  }
});
afterEach(() => processes.killAll());
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function vitest(args: string[], path: string, env: Record<string, string> = {}): Promise<Run> {
  // No extra folders: this machine's /usr/sbin/nginx must not stand in for an nginx the test means to be missing.
  const base = childEnv({ PATH: path, MOCK_SERVER_EXTRA_DIRS: '', ...env });
  for (const name of REQUIRE_VARIABLES) if (!(name in env)) delete base[name]; // CI sets them for the outer run
  const run = await processes.run(process.execPath, [VITEST, ...args], { env: base });
  // Colours, when the outer run forces them, would split "Tests  3 passed".
  return { ...run, stdout: stripVTControlCharacters(run.stdout), stderr: stripVTControlCharacters(run.stderr) };
}

const occurrences = (text: string, line: string): number => text.split(line).length - 1;

describe('a test run with neither redis-server, nginx, chromium nor podman installed', () => {
  it('passes the rest and prints one line per server, after the summary, saying its tests did not run', async () => {
    const run = await vitest(['run', PLAIN_TEST], pathWith());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const summary = run.stdout.search(/Tests\s+3 passed/);
    expect(summary).toBeGreaterThan(-1);
    for (const server of SYSTEM_SERVERS) {
      expect(occurrences(run.stdout + run.stderr, missingLine(server)), server.name).toBe(1);
      expect(run.stdout.indexOf(missingLine(server)), server.name).toBeGreaterThan(summary);
    }
  });

  it('collects no Redis, nginx, browser or image test file at all, so none is counted as passed or skipped', async () => {
    const run = await vitest(['list', '--filesOnly'], pathWith());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(PLAIN_TEST);
    for (const server of SYSTEM_SERVERS) expect(run.stdout).not.toContain(`.${server.project}.test.ts`);
  });
});

describe('a test run that requires the servers', () => {
  it('with MOCK_REQUIRE_SERVERS set and nginx missing, fails before any test, naming nginx only', async () => {
    const run = await vitest(['run', PLAIN_TEST], pathWith(REDIS.command, CHROMIUM.command, PODMAN.command), { MOCK_REQUIRE_SERVERS: '1' });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(`${missingLine(NGINX)} MOCK_REQUIRE_SERVERS is set, so this run fails.`);
    for (const server of [REDIS, CHROMIUM, PODMAN]) expect(run.stdout + run.stderr, server.name).not.toContain(missingLine(server));
    expect(run.stdout).not.toMatch(/Tests\s+\d+ passed/);
  });

  it('with MOCK_REQUIRE_REDIS set (as documented before nginx), fails when Redis is missing, not when nginx is', async () => {
    const noRedis = await vitest(['run', PLAIN_TEST], pathWith(NGINX.command), { MOCK_REQUIRE_REDIS: '1' });
    expect(noRedis.code).not.toBe(0);
    expect(noRedis.stdout + noRedis.stderr).toContain(`${missingLine(REDIS)} MOCK_REQUIRE_REDIS is set, so this run fails.`);
    expect(noRedis.stdout).not.toMatch(/Tests\s+\d+ passed/);
    const noNginx = await vitest(['list', '--filesOnly'], pathWith(REDIS.command), { MOCK_REQUIRE_REDIS: '1' });
    expect(noNginx.code, noNginx.stderr).toBe(0);
  });
});

describe('a test run with every server installed', () => {
  it('collects each server test file in its own project only, and MOCK_REQUIRE_SERVERS is satisfied', async () => {
    const run = await vitest(['list', '--filesOnly'], pathWith(...ALL), { MOCK_REQUIRE_SERVERS: '1' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('[redis] test/support/redis-server.redis.test.ts');
    expect(run.stdout).toContain('[nginx] test/docker/nginx-proxy.nginx.test.ts');
    const lines = run.stdout.split('\n');
    for (const server of SYSTEM_SERVERS) {
      const files = lines.filter((line) => line.includes(`.${server.project}.test.ts`));
      expect(files.length, server.name).toBeGreaterThan(0);
      expect(files.filter((line) => !line.startsWith(`[${server.project}] `)), server.name).toEqual([]);
    }
    for (const server of SYSTEM_SERVERS) expect(run.stdout + run.stderr).not.toContain(missingLine(server));
  });
});

describe('a test run with nginx only outside PATH', () => {
  it('finds it in the extra folders (/usr/sbin by default) and runs the nginx project', async () => {
    const run = await vitest(['list', '--filesOnly'], pathWith(), { MOCK_SERVER_EXTRA_DIRS: pathWith(NGINX.command) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('[nginx] test/docker/nginx-proxy.nginx.test.ts');
  });
});

describe('serverRequired', () => {
  const required = (env: NodeJS.ProcessEnv): boolean[] => SYSTEM_SERVERS.map((server) => serverRequired(server, env));

  it('MOCK_REQUIRE_SERVERS requires every server: off when unset, empty or 0, on for any other value', () => {
    const none = SYSTEM_SERVERS.map(() => false);
    const every = SYSTEM_SERVERS.map(() => true);
    expect([undefined, '', '0'].map((value) => required({ MOCK_REQUIRE_SERVERS: value }))).toEqual([none, none, none]);
    expect(['1', 'true', 'yes'].map((value) => required({ MOCK_REQUIRE_SERVERS: value }))).toEqual([every, every, every]);
  });

  it('MOCK_REQUIRE_REDIS requires Redis alone', () => {
    expect(required({ MOCK_REQUIRE_REDIS: '1' })).toEqual(SYSTEM_SERVERS.map((server) => server === REDIS));
    expect(required({ MOCK_REQUIRE_REDIS: '0' })).toEqual(SYSTEM_SERVERS.map(() => false));
  });
});
