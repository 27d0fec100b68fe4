import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { startMock, statusOrCut, useBuiltCli, type RunningMock } from '../../test/support/built-cli.js';
import { scenarioFolder, scenarioWith } from '../../test/support/scenario-folder.js';

/**
 * Stopping `--workers 2` on Redis as operators do: SIGTERM to the whole
 * process group (systemd's KillMode=control-group, docker stop through an
 * init that forwards to the group), SIGTERM to the primary alone, Ctrl-C on
 * the primary. Every request in flight gets its answer, then exit 0.
 */
useBuiltCli();
const folder = scenarioFolder();
folder.write(
  'slow-list.yaml',
  scenarioWith('slow-list', [
    { id: 'slow', match: { operation: 'listPets' }, fault: { latency: { fixedMs: 1500 } } },
    // Longer than the 8 s shutdown grace period.
    { id: 'too-slow', match: { operation: 'getPet' }, fault: { latency: { fixedMs: 12_000 } } },
  ]),
);

const IN_FLIGHT = 40;

async function startWorkers(): Promise<RunningMock> {
  const args = ['--store', inject('redisUrl'), '--store-prefix', `stop-${randomUUID()}`, '--workers', '2', '--no-watch'];
  const mock = await startMock([...args, '--scenarios', folder.dir, '--scenario', 'slow-list'], {}, { detached: true });
  await vi.waitFor(() => expect(mock.stdout()).toContain('2 workers serving one port'), { timeout: 10_000 });
  return mock;
}

/** `count` slow requests, each on a connection of its own; resolves with their statuses (0: no answer). */
function slowRequests(mock: RunningMock, count = IN_FLIGHT, path = '/pets?limit=1'): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => statusOrCut(mock, path, DEFAULT_API_KEY)));
}

describe('stopping --workers with requests in flight', () => {
  const cases: Array<[string, (pid: number) => void]> = [
    ['SIGTERM to the process group', (pid) => process.kill(-pid, 'SIGTERM')],
    ['SIGINT to the process group (Ctrl-C in a terminal)', (pid) => process.kill(-pid, 'SIGINT')],
    ['SIGINT to the primary only', (pid) => process.kill(pid, 'SIGINT')],
    ['SIGTERM to the primary only', (pid) => process.kill(pid, 'SIGTERM')],
    ['SIGTERM to the process group twice', (pid) => [0, 200].forEach((ms) => setTimeout(() => process.kill(-pid, 'SIGTERM'), ms))],
  ];
  it.each(cases)('%s: every request in flight is answered 200, then exit 0', async (_, signal) => {
    const mock = await startWorkers();
    const statuses = slowRequests(mock);
    // Every request accepted and waiting out its 1.5 s latency.
    await sleep(500);
    const started = Date.now();
    signal(mock.child.pid as number);
    expect(await statuses).toEqual(Array(IN_FLIGHT).fill(200));
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(mock.stdout()).not.toMatch(/stopping now|grace period .* is over/);
  });

  it('SIGINT twice to the process group (Ctrl-C again) stops at once, and says so', async () => {
    const mock = await startWorkers();
    const statuses = slowRequests(mock);
    await sleep(500);
    const pid = mock.child.pid as number;
    process.kill(-pid, 'SIGINT');
    await sleep(200);
    process.kill(-pid, 'SIGINT');
    expect(await mock.exited).toEqual({ code: 130, signal: null });
    expect((await statuses).filter((status) => status === 200).length).toBeLessThan(IN_FLIGHT);
    expect(mock.stdout()).toContain('SIGINT received twice: stopping now');
  });

  it('the end of the default 8 s grace period closes what is still in flight, and says so; the rest is answered', { timeout: 30_000 }, async () => {
    const mock = await startWorkers();
    const answered = slowRequests(mock, 6);
    const cut = slowRequests(mock, 4, '/pets/1');
    await sleep(500);
    const started = Date.now();
    process.kill(-(mock.child.pid as number), 'SIGTERM');
    expect(await answered).toEqual(Array(6).fill(200));
    expect(await cut).toEqual(Array(4).fill(0));
    expect(await mock.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeGreaterThan(7500);
    expect(Date.now() - started).toBeLessThan(9500);
    expect(mock.stdout()).toContain('the shutdown grace period of 8 s is over: closing the connections still open, their requests unanswered');
  });
});
