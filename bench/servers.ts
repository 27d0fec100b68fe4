import { randomBytes } from 'node:crypto';
import { BARE_HONO_BIN, BASELINE_BIN, FIXTURE, HOST, MOCK_BIN } from './config.js';
import { spawnNode, stopChild, type Child } from './children.js';
import { freePort } from './free-port.js';
import { readCpuSeconds, readMachineBusySeconds, readTreeCpuSeconds } from './proc-stats.js';
import type { BenchRedis } from './redis-server.js';
import { waitReady } from './wait-ready.js';

export type ServerKind = 'mock' | 'baseline' | 'bare-hono' | 'mock-console' | 'mock-redis' | 'mock-redis-x2';
/**
 * In the order each round runs them: the baseline first, bare Hono, the
 * mock, the mock with a console following its journal, then the
 * mock on Redis with one and two processes.
 */
export const SERVER_KINDS: readonly ServerKind[] = ['baseline', 'bare-hono', 'mock', 'mock-console', 'mock-redis', 'mock-redis-x2'];
/** The kinds that keep their state on the benchmark's redis-server. */
export const REDIS_KINDS: readonly ServerKind[] = ['mock-redis', 'mock-redis-x2'];

export interface RunningServer {
  kind: ServerKind;
  /** e.g. `http://127.0.0.1:4321` */
  origin: string;
  child: Child;
  /** The redis-server a Redis kind keeps its state on: its CPU is part of the server's work. */
  redis: Child | undefined;
  /** From just before the spawn to the first 200 answer of GET /v1/pets. */
  startupMs: number;
  /** CPU time the server used until then (10 ms resolution), which other load disturbs far less than wall time. */
  startupCpuMs: number | undefined;
  /** CPU seconds used meanwhile by processes other than the server and this one. */
  startupOtherCpuS: number | undefined;
}

// The baseline and bare Hono keep every animal created; so must the mock, or
// its createPet would measure 507 catalogue_full once its default bound (10,000) is reached.
const KEEP_EVERY_ANIMAL = ['--max-pets', '1000000', '--max-catalogue-bytes', String(1024 ** 3)];

export interface StartOptions {
  /** Before the script (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[];
  /** Added to the mock's command line. */
  mockArgs?: readonly string[];
  /** Where the Redis kinds keep their state; required for them. */
  redis?: BenchRedis;
}

/**
 * The mock's own flags per kind. Each Redis kind gets a key prefix of its
 * own, so it starts from the same state as the memory mock (the start
 * catalogue, no animal created yet), whatever ran before it on this Redis.
 */
function storeArgs(kind: ServerKind, redis: BenchRedis | undefined): string[] {
  if (kind === 'mock' || kind === 'mock-console') return [];
  if (!redis) throw new Error(`${kind} needs a redis-server`);
  const store = ['--store', redis.url, '--store-prefix', `bench-${randomBytes(4).toString('hex')}`];
  return kind === 'mock-redis-x2' ? [...store, '--workers', '2'] : store;
}

/** The command line of each server. */
function serverArgs(kind: ServerKind, port: number, { nodeArgs = [], mockArgs = [], redis }: StartOptions): string[] {
  if (kind === 'baseline' || kind === 'bare-hono') {
    return [...nodeArgs, kind === 'baseline' ? BASELINE_BIN : BARE_HONO_BIN, '--port', String(port), '--fixtures', FIXTURE];
  }
  return [...nodeArgs, MOCK_BIN, '--port', String(port), '--quiet', ...KEEP_EVERY_ANIMAL, ...storeArgs(kind, redis), ...mockArgs];
}

/**
 * CPU seconds so far of the processes doing a server's work: the server
 * with its children (a `--workers` mock's workers), and apart, its
 * redis-server. Undefined off Linux.
 */
export function readServerCpu(server: Pick<RunningServer, 'child' | 'redis'>): { server: number; redis: number | undefined } | undefined {
  const own = readTreeCpuSeconds(server.child.pid);
  if (own === undefined) return undefined;
  return { server: own, redis: server.redis ? readCpuSeconds(server.redis.pid) : undefined };
}

/** Spawns a server in its own process and waits for its first 200 answer. */
export async function startServer(kind: ServerKind, options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const machineBefore = readMachineBusySeconds();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const child = spawnNode(kind, serverArgs(kind, port, options));
  try {
    await waitReady(origin, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  const startupMs = performance.now() - started;
  const cpuS = readTreeCpuSeconds(child.pid);
  const machineAfter = readMachineBusySeconds();
  const own = process.cpuUsage(ownBefore);
  const otherS =
    cpuS === undefined || machineBefore === undefined || machineAfter === undefined
      ? undefined
      : Math.max(0, machineAfter - machineBefore - cpuS - (own.user + own.system) / 1e6);
  return {
    kind,
    origin,
    child,
    redis: REDIS_KINDS.includes(kind) ? options.redis?.child : undefined,
    startupMs,
    startupCpuMs: cpuS === undefined ? undefined : cpuS * 1000,
    startupOtherCpuS: otherS,
  };
}

export const stopServer = (server: RunningServer): Promise<void> => stopChild(server.child);
