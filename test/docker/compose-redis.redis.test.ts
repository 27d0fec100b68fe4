import { afterEach, describe, expect, it } from 'vitest';
import { startMock, useBuiltCli } from '../support/built-cli.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { Processes } from '../support/processes.js';
import { redisCommand } from '../support/redis-command.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { flagsOf, service } from './compose-file.js';

/**
 * compose.yaml's `redis` service run for real on Debian's redis-server
 * (7.0, the major of the `redis:7` image): its command's settings are
 * accepted and in effect, and its health check tells an answering Redis
 * from one that answers an error or none. Then the `mock` service started
 * as compose starts it, on that Redis, and its health check. Each server is
 * this file's own (startRedisServer with compose's settings appended, so
 * they win: on a free loopback port, in a temp folder), stopped after.
 */

useBuiltCli();
const processes = new Processes();
const redis = service('redis');
const [binary, ...redisArgs] = redis.command ?? [];
const mock = service('mock');
let servers: RedisServer[] = [];

/** Starts redis-server with compose's command. */
async function startRedis(): Promise<RedisServer> {
  expect(binary).toBe('redis-server');
  const server = await startRedisServer({ args: redisArgs });
  servers.push(server);
  return server;
}

const cli = (port: number, ...args: string[]) => processes.run('redis-cli', ['-p', String(port), ...args]);

afterEach(async () => {
  await processes.killAll();
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
});

/** Redis's own reading of a size (`1gb` is 1024³ bytes, `1g` 10⁹: redis.conf's units). */
function bytes(size: string): string {
  const match = /^(\d+)(k|kb|m|mb|g|gb)?$/i.exec(size);
  if (!match) return size;
  const unit = { k: 1e3, kb: 1024, m: 1e6, mb: 1024 ** 2, g: 1e9, gb: 1024 ** 3 }[(match[2] ?? '').toLowerCase() as 'k'] ?? 1;
  return String(Number(match[1]) * unit);
}

/** The `CMD-SHELL` health check, run by sh as the engine would, against `port` (the container's Redis listens on the default one). */
async function redisHealthy(port: number): Promise<number | null> {
  const [form, script = ''] = redis.healthcheck?.test ?? [];
  expect(form).toBe('CMD-SHELL');
  const run = await processes.run('sh', ['-c', script.replaceAll('redis-cli', `redis-cli -p ${port}`)]);
  return run.code;
}

describe("compose.yaml's redis service on redis-server", () => {
  it('runs with every setting of its command in effect', async () => {
    const { port } = await startRedis();
    const settings = flagsOf(redisArgs);
    expect(settings.map(([flag]) => flag)).toEqual(expect.arrayContaining(['--appendonly', '--appendfsync', '--maxmemory-policy', '--maxmemory']));
    for (const [flag, value] of settings) {
      const got = await cli(port, 'config', 'get', flag.slice(2));
      expect(got.stdout.split('\n')[1], flag).toBe(bytes(value ?? ''));
    }
  });

  it('is healthy when Redis answers PONG, unhealthy when it answers an error or nothing', async () => {
    const server = await startRedis();
    expect(await redisHealthy(server.port)).toBe(0);
    // redis-cli exits 0 on an error reply (here NOAUTH; LOADING while an AOF is replayed), so the check reads the answer.
    const locked = await startRedis();
    await redisCommand(locked.port, ['CONFIG', 'SET', 'requirepass', 'not-given']);
    expect((await cli(locked.port, 'ping')).code).toBe(0);
    expect(await redisHealthy(locked.port)).toBe(1);
    await server.stop();
    expect(await redisHealthy(server.port)).toBe(1);
  });
});

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}` forms, read from `vars` (a missing one is an error here too). */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::?[-?][^}]*)?\}/g, (_, name: string) => {
    const found = vars[name];
    if (found === undefined) throw new Error(`compose.yaml reads \${${name}}, which the test does not set`);
    return found;
  });
}

describe("the mock service's health check, against the mock started as compose.yaml starts it, on the redis service", () => {
  const key = 'compose-test-admin-key';
  const vars = { MOCK_ADMIN_KEY: key };
  const environment = Object.fromEntries(Object.entries(mock.environment ?? {}).map(([name, value]) => [name, interpolate(value, vars)]));
  const args = flagsOf(mock.command ?? []).flatMap(([flag, value]) => (value === undefined ? [flag] : [flag, value]));
  // As the Dockerfile's check does: a free port on the loopback, appended, so it wins; and the Redis started here for `redis:6379`.
  const started = (redisUrl: string) => startMock([...args, '--port', '0', '--host', '127.0.0.1', '--store', redisUrl], environment);

  /** Runs the `CMD` health check as the engine would, from the image's working folder (the package's root), in the container's environment (PORT from the image). */
  async function check(port: string, env: Record<string, string>): Promise<number | null> {
    const test = mock.healthcheck?.test ?? [];
    expect(test[0]).toBe('CMD');
    expect(test[1]).toBe('node');
    const run = await processes.node(test.slice(2), { cwd: packageRoot(), env: { PATH: process.env.PATH ?? '', PORT: port, ...env } });
    return run.code;
  }

  it('is healthy with the admin key compose gives it; unhealthy without it, while Redis is down, or with nothing listening', async () => {
    expect(args).toContain('--store');
    const server = await startRedis();
    const running = await started(server.url);
    const port = new URL(running.url).port;
    // The key from compose's environment is required: the admin API refuses without it.
    const health = await fetch(`http://127.0.0.1:${port}/__mock/health`);
    await health.arrayBuffer();
    expect(health.status).toBe(401);
    expect(await check(port, environment)).toBe(0);
    expect(await check(port, {})).toBe(1);
    expect(await check(port, { MOCK_ADMIN_KEY: 'not-the-key' })).toBe(1);
    // The readiness docs/deployment.md promises: a replica that cannot reach Redis leaves the rotation.
    await server.kill();
    expect(await check(port, environment)).toBe(1);
    running.child.kill('SIGTERM');
    await running.exited;
    expect(await check(port, environment)).toBe(1);
  });
});
