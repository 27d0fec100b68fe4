import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/contract/package-root.js';
import { childEnv, Processes, type Run } from './processes.js';
import { REDIS_TESTS_MISSING, redisRequired } from './redis-tests-missing.js';

// The test command as a developer runs it, on a PATH with or without redis-server: vitest itself in a child process.
const VITEST = join(packageRoot(), 'node_modules', 'vitest', 'vitest.mjs');
const processes = new Processes();
let noRedis: string;
let withRedis: string;

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'animal-store-redis-path-'));
  noRedis = join(root, 'empty');
  withRedis = join(root, 'with-redis');
  mkdirSync(noRedis);
  mkdirSync(withRedis);
  // Only its presence on PATH is read when the projects are chosen; `list --filesOnly` starts no server.
  writeFileSync(join(withRedis, 'redis-server'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(withRedis, 'redis-server'), 0o755);
});
afterEach(() => processes.killAll());
afterAll(() => rmSync(join(noRedis, '..'), { recursive: true, force: true }));

function vitest(args: string[], path: string, env: Record<string, string> = {}): Promise<Run> {
  const base = childEnv({ PATH: path, ...env });
  if (!('MOCK_REQUIRE_REDIS' in env)) delete base.MOCK_REQUIRE_REDIS; // CI sets it for the outer run
  return processes.run(process.execPath, [VITEST, ...args], { env: base });
}

const occurrences = (text: string, line: string): number => text.split(line).length - 1;

describe('a test run without redis-server on PATH', () => {
  it('passes the rest and prints one line, after the summary, saying the Redis tests did not run', async () => {
    const run = await vitest(['run', 'test/support/redis-server-command.test.ts'], noRedis);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(occurrences(run.stdout + run.stderr, REDIS_TESTS_MISSING)).toBe(1);
    expect(run.stdout.indexOf(REDIS_TESTS_MISSING)).toBeGreaterThan(run.stdout.search(/Tests\s+2 passed/));
  });

  it('collects no Redis test file at all, so none is counted as passed or skipped', async () => {
    const run = await vitest(['list', '--filesOnly'], noRedis);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('test/support/redis-server-command.test.ts');
    expect(run.stdout).not.toContain('.redis.test.ts');
  });

  it('fails before any test, with the line, when MOCK_REQUIRE_REDIS is set', async () => {
    const run = await vitest(['run', 'test/support/redis-server-command.test.ts'], noRedis, { MOCK_REQUIRE_REDIS: '1' });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(REDIS_TESTS_MISSING);
    expect(run.stdout).not.toMatch(/Tests\s+\d+ passed/);
  });
});

describe('a test run with redis-server on PATH', () => {
  it('collects the Redis test files in the redis project only, and MOCK_REQUIRE_REDIS is satisfied', async () => {
    const run = await vitest(['list', '--filesOnly'], withRedis, { MOCK_REQUIRE_REDIS: '1' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('[redis] test/support/redis-server.redis.test.ts');
    expect(run.stdout).not.toMatch(/\[(unit|contract)\] \S+\.redis\.test\.ts/);
    expect(run.stdout + run.stderr).not.toContain(REDIS_TESTS_MISSING);
  });
});

describe('redisRequired', () => {
  it('is off when MOCK_REQUIRE_REDIS is unset, empty or 0, and on for any other value', () => {
    expect([undefined, '', '0'].map((value) => redisRequired({ MOCK_REQUIRE_REDIS: value }))).toEqual([false, false, false]);
    expect(['1', 'true', 'yes'].map((value) => redisRequired({ MOCK_REQUIRE_REDIS: value }))).toEqual([true, true, true]);
  });
});
