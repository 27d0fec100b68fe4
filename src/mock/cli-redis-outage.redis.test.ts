import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { readChildPids as childPids } from '../../bench/proc-stats.js';
import { runToExit, startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { redisCommand } from '../../test/support/redis-command.js';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';

/**
 * Redis going away and coming back, under load, with two mock processes:
 * 503 Error bodies while it is away (never a hang, a crash or another 5xx),
 * serving again on their own once it is back, and nothing acknowledged
 * before the fault lost (Redis with AOF persistence, fsync on every write).
 * A Redis of this file's own, as it is killed.
 */
useBuiltCli();

const auth = { authorization: `Bearer ${DEFAULT_API_KEY}` };
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer({ appendonly: true });
});
afterAll(async () => {
  await redis?.stop();
});

interface Answer {
  status: number;
  code: string | undefined;
}

async function ask(mock: RunningMock, path: string, init: RequestInit = {}): Promise<Answer & { json: any }> {
  const res = await fetch(`${mock.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  const json = text === '' ? undefined : JSON.parse(text);
  return { status: res.status, code: json?.code, json };
}

const health = async (mock: RunningMock): Promise<Answer & { json: any }> => {
  const res = await fetch(mock.url.replace(/\/v1$/, '/__mock/health'));
  const json = (await res.json()) as { code?: string };
  return { status: res.status, code: json.code, json };
};

describe('Redis killed mid-load, then started again', () => {
  it('costs 503 store_unavailable only while it is away, and loses nothing acknowledged', async () => {
    const args = ['--store', redis.url, '--store-prefix', `outage-${randomUUID()}`, '--no-watch'];
    const [a, b] = await Promise.all([startMock(args), startMock(args)]);
    const before: Array<{ id: number }> = [];
    for (let i = 0; i < 10; i++) {
      const created = await ask(i % 2 ? b : a, '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Kept ${i}`, categoryId: 1 }) });
      expect(created.status).toBe(201);
      before.push(created.json);
    }

    // Load on both processes for the whole test: every answer is recorded.
    const answers: Answer[] = [];
    let loading = true;
    const load = [a, b, a, b].map(async (mock, n) => {
      for (let i = 0; loading; i++) {
        const path = n % 2 ? `/pets/${(before[i % 10] as { id: number }).id}` : '/pets?limit=50';
        const answer = await ask(mock, path);
        answers.push({ status: answer.status, code: answer.code });
      }
    });

    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.kill();
    const killedAt = answers.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const away = answers.slice(killedAt);
    const down = await health(a);
    expect([down.status, down.code]).toEqual([503, 'store_unavailable']);
    expect(down.json.message).toMatch(/redis/i);

    await redis.start();
    let back = false;
    for (let i = 0; i < 100 && !back; i++) {
      back = (await health(b)).status === 200 && (await health(a)).status === 200;
      if (!back) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back).toBe(true);
    // Requests already in flight when the health checks passed may still end in 503.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cameBack = answers.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await Promise.all(load);

    // While away: only 503 store_unavailable (or 200s answered before the client noticed), never another 5xx.
    expect(away.length).toBeGreaterThan(0);
    expect(away.some((answer) => answer.status === 503 && answer.code === 'store_unavailable')).toBe(true);
    expect(answers.filter((answer) => answer.status >= 500 && answer.code !== 'store_unavailable')).toEqual([]);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    // Back: every answer is a 200 again, from both processes, which never restarted.
    expect(answers.slice(cameBack).every((answer) => answer.status === 200)).toBe(true);
    expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null]);
    // Nothing acknowledged before the fault is lost.
    for (const pet of before) expect((await ask(b, `/pets/${pet.id}`)).json).toEqual(pet);
  });
});

describe('--workers while Redis is away', () => {
  it('a worker that dies is tried again until Redis is back: the other answers 503 meanwhile, and the command never stops', { timeout: 60_000 }, async () => {
    const mock = await startMock(['--store', redis.url, '--store-prefix', `workers-${randomUUID()}`, '--workers', '2', '--no-watch']);
    await vi.waitFor(() => expect(mock.stdout()).toContain('2 workers serving one port'), { timeout: 10_000 });
    await redis.kill();
    const [victim] = childPids(mock.child.pid as number) as [number];
    process.kill(victim, 'SIGKILL');
    // Each replacement gives up after its 5 s start-up retry, and is tried again: two of them fail here.
    await vi.waitFor(() => expect(mock.stdout().split('could not start').length - 1).toBeGreaterThanOrEqual(2), { timeout: 25_000, interval: 200 });
    expect(mock.child.exitCode).toBeNull();
    const meanwhile = await ask(mock, '/pets?limit=1');
    expect([meanwhile.status, meanwhile.code]).toEqual([503, 'store_unavailable']);
    await redis.start();
    await vi.waitFor(async () => expect((await health(mock)).status).toBe(200), { timeout: 25_000, interval: 200 });
    await vi.waitFor(() => expect(childPids(mock.child.pid as number)).toHaveLength(2), { timeout: 25_000, interval: 200 });
    expect(mock.stdout()).not.toContain('stopping');
  });
});

describe('a Redis that answers but refuses the work', () => {
  it('health answers 503 while Redis takes no writes (a replica after a failover), and 200 once it does again', async () => {
    const mock = await startMock(['--store', redis.url, '--store-prefix', `readonly-${randomUUID()}`, '--no-watch']);
    expect((await health(mock)).status).toBe(200);
    // A replica of a primary that is not there: it answers PING, and refuses every write (READONLY).
    await redisCommand(redis.port, ['REPLICAOF', '127.0.0.1', '1']);
    try {
      const down = await health(mock);
      expect([down.status, down.code]).toEqual([503, 'store_unavailable']);
      expect(down.json.message).toContain('READONLY');
      const create = await ask(mock, '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Nope', categoryId: 1 }) });
      expect([create.status, create.code]).toEqual([503, 'store_unavailable']);
    } finally {
      await redisCommand(redis.port, ['REPLICAOF', 'NO', 'ONE']);
    }
    expect((await health(mock)).status).toBe(200);
  });

  it('a Redis that wants a password the URL does not give stops the start at once, exit 1, and the process exits', async () => {
    const locked = await startRedisServer();
    try {
      await redisCommand(locked.port, ['CONFIG', 'SET', 'requirepass', 'sesame']);
      const result = await runToExit(['--port', '0', '--store', locked.url]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("refused the mock's first write");
      expect(result.stderr).toContain('NOAUTH');
    } finally {
      await locked.stop();
    }
  });
});
