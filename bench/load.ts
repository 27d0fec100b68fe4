import autocannon from 'autocannon';
import { HOST } from './config.js';
import type { FollowedEvents } from './console-follower.js';
import { readMachineBusySeconds } from './proc-stats.js';
import type { Scenario } from './scenarios.js';
import { readServerCpu, type RunningServer } from './servers.js';
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
  /**
   * CPU used by the server over the run, in % of one core: every process
   * doing its work (a `--workers` mock's workers, its redis-server).
   */
  serverCpuPct: number | undefined;
  /**
   * Server CPU time per answer, in µs: the server's cost per request, which
   * other load on the machine disturbs much less than req/s. For the Redis
   * kinds, the mock's processes and redis-server together.
   */
  serverCpuUsPerResponse: number | undefined;
  /** For the Redis kinds, serverCpuUsPerResponse's two shares: the mock's processes and redis-server. */
  cpuUsSplit?: { mock: number; redis: number };
  /** CPU used by this process (the load generator) over the run, in % of one core. */
  loadgenCpuPct: number;
  /**
   * CPU used by everything else on the machine over the run, in % of one
   * core (steal included): anything well above 0 means other work competed
   * with the benchmark and the numbers are disturbed.
   */
  otherCpuPct: number | undefined;
  /** For mock-console: what its open console received during the run. */
  console?: FollowedEvents;
}

/**
 * Drives one server with one scenario for `durationS` seconds with
 * autocannon, from this process, over the loopback interface.
 */
export async function runLoad(server: RunningServer, scenario: Scenario, durationS: number, connections: number): Promise<LoadResult> {
  const url = server.origin;
  if (!url.startsWith(`http://${HOST}:`)) throw new Error(`refusing to load ${url}: the benchmark only targets ${HOST}`);
  const latencies = new LatencyRecorder();
  const serverCpuBefore = readServerCpu(server);
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
  const serverCpuAfter = readServerCpu(server);
  const machineAfter = readMachineBusySeconds();
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const ownCpuS = (ownCpu.user + ownCpu.system) / 1e6;
  const { mockCpuS, redisCpuS } = cpuBetween(serverCpuBefore, serverCpuAfter);
  const serverCpuS = mockCpuS === undefined ? undefined : mockCpuS + (redisCpuS ?? 0);
  const otherCpuS =
    machineBefore === undefined || machineAfter === undefined || serverCpuS === undefined
      ? undefined
      : Math.max(0, machineAfter - machineBefore - serverCpuS - ownCpuS);
  const ok = result['2xx'];
  const responses = result['1xx'] + ok + result['3xx'] + result['4xx'] + result['5xx'];
  const perResponseUs = (cpuS: number): number => (cpuS * 1e6) / responses;
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
    serverCpuUsPerResponse: serverCpuS === undefined || responses === 0 ? undefined : perResponseUs(serverCpuS),
    ...(mockCpuS !== undefined && redisCpuS !== undefined && responses > 0 ? { cpuUsSplit: { mock: perResponseUs(mockCpuS), redis: perResponseUs(redisCpuS) } } : {}),
    loadgenCpuPct: (ownCpuS / wallS) * 100,
    otherCpuPct: otherCpuS === undefined ? undefined : (otherCpuS / wallS) * 100,
  };
}

type ServerCpu = ReturnType<typeof readServerCpu>;

/** CPU seconds used between two readings: the server's processes, and apart, its redis-server (Redis kinds only). */
function cpuBetween(before: ServerCpu, after: ServerCpu): { mockCpuS: number | undefined; redisCpuS: number | undefined } {
  return {
    mockCpuS: before === undefined || after === undefined ? undefined : after.server - before.server,
    redisCpuS: before?.redis === undefined || after?.redis === undefined ? undefined : after.redis - before.redis,
  };
}

/** Whether a run had any failed request. */
export const hadFailures = (result: LoadResult): boolean => result.non2xx > 0 || result.errors > 0 || result.timeouts > 0;
