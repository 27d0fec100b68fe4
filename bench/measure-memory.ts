import { setTimeout as delay } from 'node:timers/promises';
import { IDLE_WAIT_MS, MEMORY_WARM_REQUESTS } from './config.js';
import { readMemoryMiB } from './proc-stats.js';
import { checkAnswer, SCENARIOS, sendScenarioRequest } from './scenarios.js';
import { startServer, stopServer, type ServerKind } from './servers.js';

export interface MemoryResult {
  server: ServerKind;
  /** Resident set size after start-up, a few requests and ~1 s idle; undefined off Linux. */
  idleRssMiB: number | undefined;
  requestsBefore: number;
}

/** Starts a fresh server, sends a few requests of each operation, waits idle, reads VmRSS. */
export async function measureIdleMemory(kind: ServerKind): Promise<MemoryResult> {
  const server = await startServer(kind);
  try {
    let sent = 0;
    for (const scenario of SCENARIOS) {
      for (let i = 0; i < MEMORY_WARM_REQUESTS; i++) {
        const request = scenario.requests[i % scenario.requests.length];
        if (!request) continue;
        const problem = checkAnswer(scenario, await sendScenarioRequest(server.origin, request));
        if (problem) throw new Error(`${kind} ${scenario.name} before the memory reading: ${problem}`);
        sent++;
      }
    }
    await delay(IDLE_WAIT_MS);
    return { server: kind, idleRssMiB: readMemoryMiB(server.child.pid, 'VmRSS'), requestsBefore: sent };
  } finally {
    await stopServer(server);
  }
}
