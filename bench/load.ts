import autocannon from 'autocannon';
import { HOST } from './config.js';
import { readCpuSeconds, readMachineBusySeconds } from './proc-stats.js';
import type { Scenario } from './scenarios.js';
import type { RunningServer } from './servers.js';
import { LatencyRecorder } from './stats.js';

export interface LoadResult {
  scenario: Scenario['name'];
  server: RunningServer['kind'];
  /** Which interleaved pair (1, 2, …) the run belongs to. */
  pair?: number;
  durationS: number;
  connections: number;
  /** Mean of the per-second request counts (autocannon's `requests.mean`). */
  rpsMean: number;
  rpsStddev: number;
  /** Answers received, any status. */
  responses: number;
  /** Response times of the 2xx answers, in ms. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Mean bytes per 2xx answer, headers included. */
  bytesPerResponse: number;
  /** CPU used by the server process over the run, in % of one core. */
  serverCpuPct: number | undefined;
  /**
   * Server CPU time per answer, in µs: the server's cost per request, which
   * other load on the machine disturbs much less than req/s.
   */
  serverCpuUsPerResponse: number | undefined;
  /** CPU used by this process (the load generator) over the run, in % of one core. */
  loadgenCpuPct: number;
  /**
   * CPU used by everything else on the machine over the run, in % of one
   * core (steal included): anything well above 0 means other work competed
   * with the benchmark and the numbers are disturbed.
   */
  otherCpuPct: number | undefined;
}

/**
 * Drives one server with one scenario for `durationS` seconds with
 * autocannon, from this process, over the loopback interface.
 */
export async function runLoad(server: RunningServer, scenario: Scenario, durationS: number, connections: number): Promise<LoadResult> {
  const url = server.origin;
  if (!url.startsWith(`http://${HOST}:`)) throw new Error(`refusing to load ${url}: the benchmark only targets ${HOST}`);
  const latencies = new LatencyRecorder();
  const serverCpuBefore = readCpuSeconds(server.child.pid);
  const machineBefore = readMachineBusySeconds();
  const ownCpuBefore = process.cpuUsage();
  const wallBefore = performance.now();

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: durationS,
        pipelining: 1,
        timeout: 10,
        requests: scenario.requests.map((request) => ({ ...request, headers: { ...request.headers } })),
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.record(responseTime);
    });
  });

  const wallS = (performance.now() - wallBefore) / 1000;
  const serverCpuAfter = readCpuSeconds(server.child.pid);
  const machineAfter = readMachineBusySeconds();
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const ownCpuS = (ownCpu.user + ownCpu.system) / 1e6;
  const serverCpuS = serverCpuBefore === undefined || serverCpuAfter === undefined ? undefined : serverCpuAfter - serverCpuBefore;
  const otherCpuS =
    machineBefore === undefined || machineAfter === undefined || serverCpuS === undefined
      ? undefined
      : Math.max(0, machineAfter - machineBefore - serverCpuS - ownCpuS);
  const ok = result['2xx'];
  const responses = result['1xx'] + ok + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    scenario: scenario.name,
    server: server.kind,
    durationS: result.duration,
    connections,
    rpsMean: result.requests.mean,
    rpsStddev: result.requests.stddev,
    responses,
    latencyMs: latencies.summary(),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: ok > 0 ? result.throughput.total / ok : 0,
    serverCpuPct: serverCpuS === undefined ? undefined : (serverCpuS / wallS) * 100,
    serverCpuUsPerResponse: serverCpuS === undefined || responses === 0 ? undefined : (serverCpuS * 1e6) / responses,
    loadgenCpuPct: (ownCpuS / wallS) * 100,
    otherCpuPct: otherCpuS === undefined ? undefined : (otherCpuS / wallS) * 100,
  };
}

/** Whether a run had any failed request. */
export const hadFailures = (result: LoadResult): boolean => result.non2xx > 0 || result.errors > 0 || result.timeouts > 0;
