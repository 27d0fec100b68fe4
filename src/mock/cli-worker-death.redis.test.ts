import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it, vi } from 'vitest';
import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { readChildPids } from '../../bench/proc-stats.js';
import { startMock, useBuiltCli } from '../../test/support/built-cli.js';

/**
 * A worker of `--workers` SIGKILLed while new connections keep arriving:
 * each connection gets an answer or is closed, none is left hanging (the
 * the "Workers that die" of docs/deployment.md).
 */
useBuiltCli();

/** Far below the 60 s request timeout: a connection still open after this is one nobody will answer soon. */
const BOUND_MS = 5000;
const CLIENTS = 8;
const KILLS = 3;

type Outcome = 'answered' | 'closed' | 'hung';

/** One request on a connection of its own: answered, closed without an answer, or still open after BOUND_MS. */
function oneConnection(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = get(`${url}/pets?limit=1`, { agent: false, headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } }, (res) => {
      res.resume();
      res.on('end', () => done('answered'));
      res.on('error', () => done('closed'));
    });
    const timer = setTimeout(() => done('hung'), BOUND_MS);
    req.on('error', () => done('closed'));
    function done(outcome: Outcome): void {
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    }
  });
}

describe('a worker that dies under new connections', () => {
  it(`leaves no connection open longer than ${BOUND_MS / 1000} s`, { timeout: 60_000 }, async () => {
    const mock = await startMock(['--store', inject('redisUrl'), '--store-prefix', `death-${randomUUID()}`, '--workers', '2', '--no-watch']);
    await vi.waitFor(() => expect(mock.stdout()).toContain('2 workers serving one port'), { timeout: 10_000 });
    const primary = mock.child.pid as number;
    let streaming = true;
    const outcomes: Outcome[] = [];
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (streaming) outcomes.push(await oneConnection(mock.url));
    });
    for (let kill = 0; kill < KILLS; kill++) {
      await sleep(300);
      const [victim] = readChildPids(primary) as [number];
      process.kill(victim, 'SIGKILL');
      // Replaced: two workers again, the victim not among them.
      await vi.waitFor(() => expect(readChildPids(primary).filter((pid) => pid !== victim)).toHaveLength(2), { timeout: 10_000 });
    }
    await sleep(500);
    streaming = false;
    await Promise.all(clients);
    expect(outcomes.filter((outcome) => outcome === 'hung')).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === 'answered').length).toBeGreaterThan(50);
  });
});
