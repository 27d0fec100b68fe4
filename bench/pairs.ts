import type { LoadResult } from './load.js';
import { SCENARIOS } from './scenarios.js';

/** One operation's interleaved pairs, summed up: ratios pair by pair, the median and its spread. */
export interface PairSummary {
  scenario: LoadResult['scenario'];
  pairs: number;
  /** Mock req/s over baseline req/s, per pair, in run order. */
  rpsRatios: number[];
  /** Every other server's req/s over the baseline's in the same round (bare Hono, the mock). */
  rpsRatiosBy: Record<string, number[]>;
  medianRpsRatio: number | undefined;
  /** Baseline CPU µs per request over the mock's, per pair: robust to other load on the machine. */
  cpuRatios: number[];
  medianCpuRatio: number | undefined;
  /** Mock p99 minus baseline p99 in the same pair, ms. */
  p99DeltasMs: number[];
  medianP99DeltaMs: number | undefined;
  /** Medians over the pairs, per server. */
  servers: Record<string, { rps: number; p99Ms: number; cpuUsPerRequest: number | undefined }>;
}

export const median = (values: readonly number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * The runs are interleaved (baseline, mock, baseline, mock, …) so that a
 * change in the machine's load hits both servers of a pair alike; a ratio is
 * taken within a pair, never across pairs, and the median of the pairs is
 * what is quoted, with the range beside it.
 */
export function summarisePairs(load: readonly LoadResult[]): PairSummary[] {
  return SCENARIOS.map(({ name }) => {
    const runs = load.filter((r) => r.scenario === name);
    const pairNumbers = [...new Set(runs.map((r) => r.pair ?? 0))].sort((a, b) => a - b);
    const rpsRatios: number[] = [];
    const cpuRatios: number[] = [];
    const p99DeltasMs: number[] = [];
    for (const pair of pairNumbers) {
      const mock = runs.find((r) => r.pair === pair && r.server === 'mock');
      const baseline = runs.find((r) => r.pair === pair && r.server === 'baseline');
      if (!mock || !baseline) continue;
      if (baseline.rpsMean > 0) rpsRatios.push(mock.rpsMean / baseline.rpsMean);
      if (mock.serverCpuUsPerResponse && baseline.serverCpuUsPerResponse) cpuRatios.push(baseline.serverCpuUsPerResponse / mock.serverCpuUsPerResponse);
      p99DeltasMs.push(mock.latencyMs.p99 - baseline.latencyMs.p99);
    }
    const rpsRatiosBy: Record<string, number[]> = {};
    for (const kind of [...new Set(runs.map((r) => r.server))].filter((k) => k !== 'baseline')) {
      rpsRatiosBy[kind] = pairNumbers.flatMap((pair) => {
        const own = runs.find((r) => r.pair === pair && r.server === kind);
        const baseline = runs.find((r) => r.pair === pair && r.server === 'baseline');
        return own && baseline && baseline.rpsMean > 0 ? [own.rpsMean / baseline.rpsMean] : [];
      });
    }
    const servers: PairSummary['servers'] = {};
    for (const kind of [...new Set(runs.map((r) => r.server))]) {
      const own = runs.filter((r) => r.server === kind);
      servers[kind] = {
        rps: median(own.map((r) => r.rpsMean)) ?? 0,
        p99Ms: median(own.map((r) => r.latencyMs.p99)) ?? 0,
        cpuUsPerRequest: median(own.flatMap((r) => (r.serverCpuUsPerResponse === undefined ? [] : [r.serverCpuUsPerResponse]))),
      };
    }
    return {
      scenario: name,
      pairs: rpsRatios.length,
      rpsRatios,
      rpsRatiosBy,
      medianRpsRatio: median(rpsRatios),
      cpuRatios,
      medianCpuRatio: median(cpuRatios),
      p99DeltasMs,
      medianP99DeltaMs: median(p99DeltasMs),
      servers,
    };
  });
}
