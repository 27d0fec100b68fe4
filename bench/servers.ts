import { BARE_HONO_BIN, BASELINE_BIN, FIXTURE, HOST, MOCK_BIN } from './config.js';
import { spawnNode, stopChild, type Child } from './children.js';
import { freePort } from './free-port.js';
import { readCpuSeconds, readMachineBusySeconds } from './proc-stats.js';
import { waitReady } from './wait-ready.js';

export type ServerKind = 'mock' | 'baseline' | 'bare-hono';
/** In the order each pair runs them: the baseline first, bare Hono, then the mock. */
export const SERVER_KINDS: readonly ServerKind[] = ['baseline', 'bare-hono', 'mock'];

export interface RunningServer {
  kind: ServerKind;
  /** e.g. `http://127.0.0.1:4321` */
  origin: string;
  child: Child;
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

/** The command line of each server; `nodeArgs` go before the script (e.g. `--cpu-prof`). */
function serverArgs(kind: ServerKind, port: number, nodeArgs: readonly string[], mockArgs: readonly string[]): string[] {
  if (kind === 'mock') return [...nodeArgs, MOCK_BIN, '--port', String(port), '--quiet', ...KEEP_EVERY_ANIMAL, ...mockArgs];
  return [...nodeArgs, kind === 'baseline' ? BASELINE_BIN : BARE_HONO_BIN, '--port', String(port), '--fixtures', FIXTURE];
}

/** Spawns a server in its own process and waits for its first 200 answer; `mockArgs` go to the mock's command line. */
export async function startServer(kind: ServerKind, nodeArgs: readonly string[] = [], mockArgs: readonly string[] = []): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const machineBefore = readMachineBusySeconds();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const child = spawnNode(kind, serverArgs(kind, port, nodeArgs, mockArgs));
  try {
    await waitReady(origin, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  const startupMs = performance.now() - started;
  const cpuS = readCpuSeconds(child.pid);
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
    startupMs,
    startupCpuMs: cpuS === undefined ? undefined : cpuS * 1000,
    startupOtherCpuS: otherS,
  };
}

export const stopServer = (server: RunningServer): Promise<void> => stopChild(server.child);
