import type { LoadResult } from './load.js';
import { SCENARIOS } from './scenarios.js';
import type { ServerKind } from './servers.js';

/** One operation's interleaved pairs, summed up: ratios pair by pair, the median and its spread. */
export interface PairSummary {
  scenario: LoadResult['scenario'];
  pairs: number;
  /** Mock req/s over baseline req/s, per pair, in run order. */
  rpsRatios: number[];
  /** Every other server's req/s over the baseline's in the same round (bare Hono, the mock, the Redis kinds). */
  rpsRatiosBy: Record<string, number[]>;
  /** The baseline's CPU µs per request over every other server's, per round. */
  cpuRatiosBy: Record<string, number[]>;
  medianRpsRatio: number | undefined;
  /** Baseline CPU µs per request over the mock's, per pair: robust to other load on the machine. */
  cpuRatios: number[];
  medianCpuRatio: number | undefined;
  /** Mock p99 minus baseline p99 in the same pair, ms. */
  p99DeltasMs: number[];
  medianP99DeltaMs: number | undefined;
  /** COMPARISONS, for the kinds that ran. */
  comparisons: RoundComparison[];
  /** Medians over the pairs, per server; `cpuUsSplit`: the mock's and redis-server's shares, for the Redis kinds. */
  servers: Record<string, { rps: number; p99Ms: number; cpuUsPerRequest: number | undefined; cpuUsSplit: { mock: number; redis: number } | undefined }>;
}

export const median = (values: readonly number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Two servers compared round by round: `of`'s req/s over `over`'s in the same round, never across rounds. */
export interface RoundComparison {
  of: ServerKind;
  over: ServerKind;
  rpsRatios: number[];
  medianRpsRatio: number | undefined;
  /** `of`'s CPU µs per request over `over`'s, per round: what a request costs `of`, as a multiple of `over`'s cost. */
  cpuRatios: number[];
  medianCpuRatio: number | undefined;
}

/**
 * The comparisons besides the baseline: the mock with its console open over
 * the mock without, the Redis store over the memory store, two
 * processes over one.
 */
export const COMPARISONS: readonly (readonly [of: ServerKind, over: ServerKind])[] = [
  ['mock-console', 'mock'],
  ['mock-redis', 'mock'],
  ['mock-redis-x2', 'mock-redis'],
];

const rps = (run: LoadResult): number => run.rpsMean;
const cpuUs = (run: LoadResult): number | undefined => run.serverCpuUsPerResponse;

/** `of`'s value over `over`'s, in each round where both ran and `over`'s is above 0. */
function roundRatios(runs: readonly LoadResult[], rounds: readonly number[], of: string, over: string, value: (run: LoadResult) => number | undefined): number[] {
  return rounds.flatMap((pair) => {
    const a = runs.find((r) => r.pair === pair && r.server === of);
    const b = runs.find((r) => r.pair === pair && r.server === over);
    const top = a && value(a);
    const bottom = b && value(b);
    return top === undefined || !bottom ? [] : [top / bottom];
  });
}

function compare(runs: readonly LoadResult[], rounds: readonly number[], of: ServerKind, over: ServerKind): RoundComparison {
  const rpsRatios = roundRatios(runs, rounds, of, over, rps);
  const cpuRatios = roundRatios(runs, rounds, of, over, cpuUs);
  return { of, over, rpsRatios, medianRpsRatio: median(rpsRatios), cpuRatios, medianCpuRatio: median(cpuRatios) };
}

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
    const kinds = [...new Set(runs.map((r) => r.server))];
    const toBaseline = compare(runs, pairNumbers, 'mock', 'baseline');
    const p99DeltasMs = p99Deltas(runs, pairNumbers);
    const rpsRatiosBy: Record<string, number[]> = {};
    const cpuRatiosBy: Record<string, number[]> = {};
    for (const kind of kinds.filter((k) => k !== 'baseline')) {
      rpsRatiosBy[kind] = roundRatios(runs, pairNumbers, kind, 'baseline', rps);
      cpuRatiosBy[kind] = roundRatios(runs, pairNumbers, 'baseline', kind, cpuUs);
    }
    const servers: PairSummary['servers'] = {};
    for (const kind of kinds) {
      const own = runs.filter((r) => r.server === kind);
      servers[kind] = {
        rps: median(own.map((r) => r.rpsMean)) ?? 0,
        p99Ms: median(own.map((r) => r.latencyMs.p99)) ?? 0,
        cpuUsPerRequest: median(own.flatMap((r) => (r.serverCpuUsPerResponse === undefined ? [] : [r.serverCpuUsPerResponse]))),
        cpuUsSplit: medianSplit(own),
      };
    }
    return {
      scenario: name,
      pairs: toBaseline.rpsRatios.length,
      rpsRatios: toBaseline.rpsRatios,
      rpsRatiosBy,
      medianRpsRatio: toBaseline.medianRpsRatio,
      cpuRatios: toBaseline.cpuRatios,
      cpuRatiosBy,
      medianCpuRatio: toBaseline.medianCpuRatio,
      p99DeltasMs,
      medianP99DeltaMs: median(p99DeltasMs),
      comparisons: COMPARISONS.map(([of, over]) => compare(runs, pairNumbers, of, over)).filter((c) => c.rpsRatios.length > 0),
      servers,
    };
  });
}

/** Mock p99 minus baseline p99, round by round. */
function p99Deltas(runs: readonly LoadResult[], rounds: readonly number[]): number[] {
  return rounds.flatMap((pair) => {
    const mock = runs.find((r) => r.pair === pair && r.server === 'mock');
    const baseline = runs.find((r) => r.pair === pair && r.server === 'baseline');
    return mock && baseline ? [mock.latencyMs.p99 - baseline.latencyMs.p99] : [];
  });
}

/**
 * The mock's and redis-server's shares of the CPU per request in the median
 * run (by their sum), so that the two add up to the median quoted beside
 * them (for an odd number of rounds); undefined when the runs have no split.
 */
function medianSplit(runs: readonly LoadResult[]): { mock: number; redis: number } | undefined {
  const splits = runs.flatMap((r) => (r.cpuUsSplit ? [r.cpuUsSplit] : [])).sort((a, b) => a.mock + a.redis - (b.mock + b.redis));
  return splits[Math.floor(splits.length / 2)];
}
