/**
 * The benchmark's own Redis: Debian's `redis-server` as a child process on a
 * free loopback port, in a temporary folder of its own, with no config file
 * (nothing on the machine, such as a system Redis on 6379 or /etc/redis, is
 * read or touched), no snapshots and no append-only file, so disk writes
 * never weigh on the figures. Stopped at the end with the other children.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { spawnChild, stopChild, type Child } from './children.js';
import { HOST, POLL_INTERVAL_MS, READY_TIMEOUT_MS } from './config.js';
import { freePort } from './free-port.js';

export interface BenchRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  child: Child;
  /** e.g. `7.0.15`, from its start-up log; undefined if the log did not say. */
  version: string | undefined;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}

/** What the report says when the Redis kinds are left out. */
export const REDIS_MISSING_NOTE =
  'mock-redis and mock-redis-x2 were not measured: redis-server is not on PATH (Debian: apt-get install redis-server)';

/** A port picked by listening on port 0 can be taken before redis binds it; then another is tried. */
const PORT_ATTEMPTS = 5;

/** Starts redis-server and resolves once it is ready, or with undefined when the command is not installed. */
export async function startBenchRedis(): Promise<BenchRedis | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-redis-'));
  try {
    for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      const port = await freePort();
      let child: Child;
      try {
        child = spawnChild('redis-server', 'redis-server', serverArgs(port, dir));
      } catch {
        rmSync(dir, { recursive: true, force: true });
        return undefined;
      }
      const started = await waitForLog(child);
      if (started === 'ready') {
        const version = /Redis version=([\w.]+)/.exec(child.output())?.[1];
        const stop = async (): Promise<void> => {
          await stopChild(child);
          rmSync(dir, { recursive: true, force: true });
        };
        return { url: `redis://${HOST}:${port}`, child, version, stop };
      }
      await stopChild(child);
      if (started !== 'port taken') throw new Error(`redis-server did not start (${started}):\n${child.output()}`);
    }
    throw new Error(`redis-server found no free port in ${PORT_ATTEMPTS} attempts`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function serverArgs(port: number, dir: string): string[] {
  return [
    ...['--port', String(port), '--bind', HOST, '--dir', dir],
    // Nothing written to disk: a snapshot or an fsync in the middle of a run would be measured as the store's cost.
    ...['--save', '', '--appendonly', 'no'],
    ...['--protected-mode', 'no', '--daemonize', 'no'],
  ];
}

/**
 * Redis logs "Ready to accept connections" once it listens (7.0 and 7.2
 * alike), or "Address already in use" when the port was taken meanwhile.
 * The line comes from the process itself, so it is this Redis that is
 * ready, not another one that took the port.
 */
async function waitForLog(child: Child): Promise<'ready' | 'port taken' | 'exited' | 'timed out'> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const output = child.output();
    if (output.includes('Ready to accept connections')) return 'ready';
    if (output.includes('Address already in use')) return 'port taken';
    if (child.exited()) return 'exited';
    if (performance.now() > deadline) return 'timed out';
    await delay(POLL_INTERVAL_MS);
  }
}
