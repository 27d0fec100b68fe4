import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/built-cli.js';
import { Processes } from '../support/processes.js';
import { flagsOf, service } from './compose-file.js';

/**
 * compose.yaml's `redis` service run for real on Debian's redis-server
 * (7.0, the major of the `redis:7` image): its command's settings are
 * accepted and in effect, and its health check tells an answering Redis
 * from one that answers an error or none. The server is this file's own
 * (it runs with compose's settings, on a free loopback port, in a temp
 * folder), stopped after.
 */

const processes = new Processes();
const redis = service('redis');
const command = redis.command ?? [];
let folder: string;

/** Starts redis-server with compose's command, `extra` appended (so it wins), and resolves with its port. */
async function startRedis(extra: string[] = []): Promise<number> {
  const port = await freePort();
  const [binary, ...args] = command;
  expect(binary).toBe('redis-server');
  const dir = mkdtempSync(join(folder, 'redis-'));
  await processes.startCommand('redis-server', [...args, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...extra], /Ready to accept connections/);
  return port;
}

const cli = (port: number, ...args: string[]) => processes.run('redis-cli', ['-p', String(port), ...args]);

/** Redis's own reading of a size (`1gb` is 1024³ bytes, `1g` 10⁹: redis.conf's units). */
function bytes(size: string): string {
  const match = /^(\d+)(k|kb|m|mb|g|gb)?$/i.exec(size);
  if (!match) return size;
  const unit = { k: 1e3, kb: 1024, m: 1e6, mb: 1024 ** 2, g: 1e9, gb: 1024 ** 3 }[(match[2] ?? '').toLowerCase() as 'k'] ?? 1;
  return String(Number(match[1]) * unit);
}

/** The `CMD-SHELL` health check, run by sh as the engine would, against `port` (the container's Redis listens on the default one). */
async function healthy(port: number): Promise<number | null> {
  const [form, script = ''] = redis.healthcheck?.test ?? [];
  expect(form).toBe('CMD-SHELL');
  const run = await processes.run('sh', ['-c', script.replaceAll('redis-cli', `redis-cli -p ${port}`)]);
  return run.code;
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'compose-redis-'));
});
afterEach(() => processes.killAll());
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("compose.yaml's redis service on redis-server", () => {
  it('runs with every setting of its command in effect', async () => {
    const port = await startRedis();
    const settings = flagsOf(command);
    expect(settings.map(([flag]) => flag)).toEqual(expect.arrayContaining(['--appendonly', '--appendfsync', '--maxmemory-policy', '--maxmemory']));
    for (const [flag, value] of settings) {
      const got = await cli(port, 'config', 'get', flag.slice(2));
      expect(got.stdout.split('\n')[1], flag).toBe(bytes(value ?? ''));
    }
  });

  it('is healthy when Redis answers PONG, unhealthy when it answers an error or nothing', async () => {
    const port = await startRedis();
    expect(await healthy(port)).toBe(0);
    // redis-cli exits 0 on an error reply (here NOAUTH; LOADING while an AOF is replayed), so the check reads the answer.
    const locked = await startRedis(['--requirepass', 'not-given']);
    expect((await cli(locked, 'ping')).code).toBe(0);
    expect(await healthy(locked)).toBe(1);
    await processes.killAll();
    expect(await healthy(port)).toBe(1);
  });
});
