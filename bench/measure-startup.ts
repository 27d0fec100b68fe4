import { STARTUP_REPEATS } from './config.js';
import { startServer, stopServer, type ServerKind } from './servers.js';
import { median } from './stats.js';

export interface StartupResult {
  server: ServerKind;
  /** Spawn to first 200 answer of GET /v1/pets, in ms, in run order. */
  runsMs: number[];
  medianMs: number;
  /** The server's own CPU time to its first answer, per run (10 ms resolution). */
  cpuMs: (number | undefined)[];
  medianCpuMs: number | undefined;
  /**
   * CPU other processes used during the starts, in % of one core, over all
   * runs together (a single start is too short for the 10 ms clock ticks).
   */
  otherCpuPct: number | undefined;
}

/** Starts a fresh server `repeats` times, one after another, and times each start. */
export async function measureStartup(kind: ServerKind, repeats = STARTUP_REPEATS): Promise<StartupResult> {
  const runsMs: number[] = [];
  const cpuMs: (number | undefined)[] = [];
  let otherCpuS: number | undefined = 0;
  for (let run = 0; run < repeats; run++) {
    const server = await startServer(kind);
    runsMs.push(server.startupMs);
    cpuMs.push(server.startupCpuMs);
    otherCpuS = otherCpuS === undefined || server.startupOtherCpuS === undefined ? undefined : otherCpuS + server.startupOtherCpuS;
    await stopServer(server);
  }
  const knownCpu = cpuMs.filter((ms): ms is number => ms !== undefined);
  return {
    server: kind,
    runsMs,
    medianMs: median(runsMs),
    cpuMs,
    medianCpuMs: knownCpu.length > 0 ? median(knownCpu) : undefined,
    otherCpuPct: otherCpuS === undefined ? undefined : (otherCpuS / (runsMs.reduce((sum, ms) => sum + ms, 0) / 1000)) * 100,
  };
}
