import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { redisCommand } from '../../test/support/redis-command.js';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';

/**
 * Redis's maxmemory-policy, checked by the mock: refused under allkeys-*
 * (where every key may be evicted silently), warned about under volatile-*
 * and where it cannot be read, shown in the start-up line and in health.
 * Redis servers of this file's own, as their policy is changed.
 */
useBuiltCli();

let redis: RedisServer;
let locked: RedisServer;
beforeAll(async () => {
  [redis, locked] = await Promise.all([
    startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru'] }),
    // As some managed Redis services: a user that may not run CONFIG or INFO (the default user stays whole for the helper).
    startRedisServer({ args: ['--user', 'mock', 'on', '>mock-pw', '~*', '&*', '+@all', '-config', '-info'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([redis?.stop(), locked?.stop()]);
});

const args = (server: RedisServer, url = server.url): string[] => ['--store', url, '--store-prefix', `policy-${randomUUID()}`, '--no-watch'];
const setPolicy = (policy: string) => redisCommand(redis.port, ['CONFIG', 'SET', 'maxmemory-policy', policy]);

async function health(mock: RunningMock): Promise<{ status: number; evictionPolicy: unknown }> {
  const res = await fetch(mock.url.replace(/\/v1$/, '/__mock/health'));
  return { status: res.status, evictionPolicy: ((await res.json()) as { evictionPolicy?: unknown }).evictionPolicy };
}

describe("Redis's maxmemory-policy", () => {
  it('allkeys-lru: the mock refuses to start (exit 1), saying why and what to set', async () => {
    await setPolicy('allkeys-lru');
    const run = await runToExit(['--port', '0', ...args(redis)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('evicts any key when full (maxmemory-policy allkeys-lru)');
    expect(run.stderr).toContain('maxmemory-policy noeviction');
  });

  it('volatile-lru: starts, warning that sessions may vanish; start-up line and health name the policy', async () => {
    await setPolicy('volatile-lru');
    const mock = await startMock(args(redis));
    expect(mock.banner).toContain('maxmemory-policy volatile-lru');
    expect(mock.stdout()).toContain('evicts keys with a TTL when full (maxmemory-policy volatile-lru)');
    expect(await health(mock)).toEqual({ status: 200, evictionPolicy: 'volatile-lru' });
  });

  it('noeviction: no warning; health says the policy in force now, changed after start-up too', async () => {
    await setPolicy('noeviction');
    const mock = await startMock(args(redis));
    expect(mock.banner).toContain('maxmemory-policy noeviction');
    expect(mock.stdout()).not.toContain('WARN');
    expect(await health(mock)).toEqual({ status: 200, evictionPolicy: 'noeviction' });
    await setPolicy('allkeys-random');
    expect(await health(mock)).toEqual({ status: 200, evictionPolicy: 'allkeys-random' });
  });

  it('where Redis allows neither CONFIG nor INFO, the mock starts and says it could not check', async () => {
    const mock = await startMock(args(locked, locked.url.replace('//', '//mock:mock-pw@')));
    expect(mock.stdout()).toMatch(/WARN.*maxmemory-policy unknown: the mock could not read it \(CONFIG GET: .*NOPERM/);
    const { status, evictionPolicy } = await health(mock);
    expect(status).toBe(200);
    expect(evictionPolicy).toMatch(/^unknown: the mock could not read it \(CONFIG GET: .*; INFO: .*\)$/);
  });
});
