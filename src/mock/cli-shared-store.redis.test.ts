import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { readChildPids as childPids } from '../../bench/proc-stats.js';
import { runToExit, startMock, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';

/**
 * The shared store's guarantees, tried as a team would: two mock processes started
 * with one `--store redis://…` (the run's real redis-server) behave as one
 * mock for every client. Each test starts its own pair under a prefix of
 * its own, so no test sees another's state.
 */
useBuiltCli();

const auth = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const JSON_HEADERS = { ...auth, 'content-type': 'application/json' };

interface Pair {
  a: RunningMock;
  b: RunningMock;
  /** A, then B, then A…: the i-th request's process. */
  at(i: number): RunningMock;
}

async function startPair(args: string[] = []): Promise<Pair> {
  const shared = ['--store', inject('redisUrl'), '--store-prefix', `pair-${randomUUID()}`, '--no-watch', ...args];
  const [a, b] = await Promise.all([startMock(shared), startMock(shared)]);
  return { a, b, at: (i) => (i % 2 === 0 ? a : b) };
}

const admin = (mock: RunningMock, path: string): string => mock.url.replace(/\/v1$/, `/__mock${path}`);

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
}

const create = (mock: RunningMock, name: string, headers: Record<string, string> = {}, status?: string) =>
  call(`${mock.url}/pets`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify({ name, categoryId: 1, ...(status ? { status } : {}) }) });

describe('two processes on one Redis', () => {
  it('a create acknowledged by one is visible to the very next request on the other: getPet, listPets, and under its status', async () => {
    const { a, b } = await startPair();
    const created = await create(a, 'Shared', {}, 'pending');
    expect(created.status).toBe(201);
    expect(await call(`${b.url}/pets/${created.json.id}`)).toEqual({ status: 200, json: created.json });
    expect((await call(`${b.url}/pets?limit=100`)).json).toContainEqual(created.json);
    expect((await call(`${b.url}/pets?status=pending&limit=100`)).json).toContainEqual(created.json);
    expect((await call(`${b.url}/pets?status=sold&limit=100`)).json).not.toContainEqual(created.json);
  });

  it('concurrent creates spread over both get unique ids, increasing in the order they were acknowledged, each readable from both', async () => {
    const { a, b, at } = await startPair();
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => create(at(i), `Burst ${i}`)));
    expect(created.map((res) => res.status)).toEqual(Array(40).fill(201));
    const ids = created.map((res) => res.json.id as number);
    expect(new Set(ids).size).toBe(40);
    const sorted = [...ids].sort((x, y) => x - y);
    // One counter: the 40 ids are 40 consecutive numbers, whichever process handed each out.
    expect((sorted.at(-1) as number) - (sorted[0] as number)).toBe(39);
    for (const mock of [a, b]) {
      const listed = (await call(`${mock.url}/pets?limit=100`)).json.map((pet: { id: number }) => pet.id);
      expect(listed.slice(-40)).toEqual(sorted);
    }
    // One after another, alternating processes: each id is larger than the one before.
    const sequential: number[] = [];
    for (let i = 0; i < 6; i++) sequential.push((await create(at(i), `Next ${i}`)).json.id);
    expect(sequential).toEqual([...sequential].sort((x, y) => x - y));
    expect(sequential[0]).toBeGreaterThan(sorted.at(-1) as number);
  });

  it('every: 3 over requests alternating between processes fires on exactly every third (flaky)', async () => {
    const { at } = await startPair(['--scenario', 'flaky']);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(`${at(i).url}/pets?limit=1`)).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503, 200, 200, 503, 200, 200, 503]);
  });

  it('every: 3 holds under concurrency too: of 30 requests at once over both, exactly 10 get 503', async () => {
    const { at } = await startPair(['--scenario', 'flaky']);
    const statuses = await Promise.all(Array.from({ length: 30 }, async (_, i) => (await call(`${at(i).url}/pets?limit=1`)).status));
    expect(statuses.filter((status) => status === 503)).toHaveLength(10);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
  });

  it('activating, resetting, ending a session and emptying a journal through one process apply on the other at once', async () => {
    const { a, b } = await startPair();
    const qa = { 'x-mock-session': 'qa' };
    const activated = await call(admin(a, '/scenarios/active'), { method: 'PUT', headers: { ...JSON_HEADERS, ...qa }, body: JSON.stringify({ name: 'sold-out' }) });
    expect(activated.status).toBe(200);
    expect((await call(`${b.url}/pets?status=available`, { headers: qa })).json).toEqual([]);
    expect((await call(admin(b, '/health'), { headers: qa })).json).toMatchObject({ scenario: 'sold-out', store: 'redis', session: 'qa' });

    const added = await create(b, 'Temp', qa);
    expect((await call(`${a.url}/pets/${added.json.id}`, { headers: qa })).status).toBe(200);
    expect((await call(admin(a, '/reset'), { method: 'POST', headers: qa })).status).toBe(200);
    expect((await call(`${b.url}/pets/${added.json.id}`, { headers: qa })).status).toBe(404);

    expect((await call(admin(b, '/journal'), { headers: qa })).json.entries.length).toBeGreaterThan(0);
    expect((await call(admin(a, '/journal'), { method: 'DELETE', headers: qa })).status).toBe(200);
    expect((await call(admin(b, '/journal'), { headers: qa })).json.entries).toEqual([]);

    expect((await call(admin(b, '/sessions'))).json.sessions.map((s: { id: string }) => s.id)).toEqual(['qa']);
    expect((await call(admin(a, '/sessions/qa'), { method: 'DELETE' })).json).toEqual({ ended: 1 });
    expect((await call(admin(b, '/sessions'))).json.sessions).toEqual([]);
    // Ended everywhere: the session starts afresh, in the start scenario.
    expect((await call(admin(b, '/health'), { headers: qa })).json.scenario).toBe('default');
  });

  it('a journal entry is there on the other process as soon as its answer is, and emptying it through one empties it for all', async () => {
    const { a, b } = await startPair();
    const j = { 'x-mock-session': 'journaled' };
    for (let round = 0; round < 40; round++) {
      await call(`${a.url}/pets?limit=${(round % 9) + 1}`, { headers: j });
      const seen = (await call(admin(b, '/journal'), { headers: j })).json.entries.map((e: { path: string }) => e.path);
      expect(seen.at(-1)).toBe(`/v1/pets?limit=${(round % 9) + 1}`);
      await call(admin(b, '/journal'), { method: 'DELETE', headers: j });
      expect((await call(admin(a, '/journal'), { headers: j })).json.entries).toEqual([]);
    }
  });

  it('a scenario\'s state machine advances once per request, whichever process serves it', async () => {
    const { a, b, at } = await startPair(['--scenario', 'flaky']);
    const before = (await call(admin(a, '/health'))).json.calls[0];
    for (let i = 0; i < 7; i++) await call(`${at(i).url}/pets/1`);
    expect((await call(admin(b, '/health'))).json.calls).toEqual([before + 7]);
  });

  it('--max-sessions holds across processes: a third session is refused on either while both are in use', async () => {
    const { a, b } = await startPair(['--max-sessions', '2']);
    expect((await call(`${a.url}/pets?limit=1`, { headers: { 'x-mock-session': 's1' } })).status).toBe(200);
    expect((await call(`${b.url}/pets?limit=1`, { headers: { 'x-mock-session': 's2' } })).status).toBe(200);
    for (const mock of [a, b]) {
      const refused = await call(`${mock.url}/pets?limit=1`, { headers: { 'x-mock-session': 's3' } });
      expect([refused.status, refused.json.code]).toEqual([503, 'too_many_sessions']);
    }
    expect((await call(admin(a, '/sessions'))).json.sessions.map((s: { id: string }) => s.id).sort()).toEqual(['s1', 's2']);
  });

  it('a session idle past --session-idle ends everywhere', async () => {
    const { a, b } = await startPair(['--session-idle', '1']);
    const sleepy = { 'x-mock-session': 'sleepy' };
    const created = await create(a, 'Forgotten', sleepy);
    expect((await call(`${b.url}/pets/${created.json.id}`, { headers: sleepy })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const mock of [a, b]) expect((await call(admin(mock, '/sessions'))).json.sessions).toEqual([]);
    expect((await call(`${b.url}/pets/${created.json.id}`, { headers: sleepy })).status).toBe(404);
  });

  it('with --session-per-key, a key names the same session on every process', async () => {
    const { a, b } = await startPair(['--session-per-key']);
    const created = await create(a, 'Mine');
    expect(created.status).toBe(201);
    const fromB = await call(`${b.url}/pets/${created.json.id}`);
    expect(fromB.status).toBe(200);
    // Not in the shared default: a request naming no session and no key session sees the start catalogue only.
    expect((await call(`${b.url}/pets/${created.json.id}`, { headers: { 'x-mock-session': 'elsewhere' } })).status).toBe(404);
  });
});

describe('--session-per-key across processes', () => {
  it('two keys naming one new session at the same moment, on two processes: never both served in it', async () => {
    const { a, b } = await startPair(['--session-per-key', '--api-key', 'k-one', '--api-key', 'k-two']);
    for (let round = 0; round < 30; round++) {
      const id = `contested-${round}`;
      const [one, two] = await Promise.all([
        fetch(`${a.url}/pets?limit=1`, { headers: { authorization: 'Bearer k-one', 'x-mock-session': id } }),
        fetch(`${b.url}/pets?limit=1`, { headers: { authorization: 'Bearer k-two', 'x-mock-session': id } }),
      ]);
      await Promise.all([one.arrayBuffer(), two.arrayBuffer()]);
      expect([one.status, two.status].sort()).toEqual([200, 403]);
    }
  });
});

describe('--workers', () => {
  it('--workers 2 serves one port from two processes on the shared store, as one mock', async () => {
    const mock = await startMock(['--store', inject('redisUrl'), '--store-prefix', `workers-${randomUUID()}`, '--workers', '2', '--no-watch']);
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await create(mock, `W${i}`);
      expect(created.status).toBe(201);
      ids.push(created.json.id);
      // A new connection each time: whichever worker accepts it reads what the other wrote.
      expect((await call(`${mock.url}/pets/${created.json.id}`, { headers: { connection: 'close' } })).status).toBe(200);
    }
    expect(new Set(ids).size).toBe(8);
  });

  it('replaces a worker that dies, and SIGTERM to the primary stops every worker', async () => {
    const mock = await startMock(['--store', inject('redisUrl'), '--store-prefix', `workers-${randomUUID()}`, '--workers', '2', '--no-watch']);
    const primary = mock.child.pid as number;
    const workers = (): number[] => childPids(primary);
    // Both listening (the primary says so once they are): a worker dying before then fails the start instead.
    await vi.waitFor(() => expect(mock.stdout()).toContain('2 workers serving one port'), { timeout: 10_000 });
    expect(workers()).toHaveLength(2);
    const [victim] = workers() as [number];
    process.kill(victim, 'SIGKILL');
    await vi.waitFor(() => expect(workers().filter((pid) => pid !== victim)).toHaveLength(2), { timeout: 10_000 });
    // The replacement serves: every connection gets an answer from one of the two.
    for (let i = 0; i < 6; i++) expect((await call(`${mock.url}/pets?limit=1`, { headers: { connection: 'close' } })).status).toBe(200);
    const before = workers();
    mock.child.kill('SIGTERM');
    expect((await mock.exited).code).toBe(0);
    for (const pid of before) expect(alive(pid)).toBe(false);
  });

  it('stops with a clear message when the store is unreachable at start-up, after a short retry', async () => {
    const result = await runToExit(['--port', '0', '--store', 'redis://127.0.0.1:1', '--workers', '2']);
    expect(result.code).not.toBe(0);
    expect(result.stderr + result.stdout).toContain('redis://127.0.0.1:1');
  });
});

describe('start-up', () => {
  it('an unreachable Redis stops the mock with a clear message after a short retry, naming the URL without its password', async () => {
    const result = await runToExit(['--port', '0', '--store', 'redis://user:hunter2@127.0.0.1:1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('redis://user:***@127.0.0.1:1');
    expect(result.stderr).not.toContain('hunter2');
  });
});


function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
