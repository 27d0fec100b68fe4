import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import type { LoadResult } from './load.js';
import type { MemoryResult } from './measure-memory.js';
import type { StartupResult } from './measure-startup.js';
import type { ServerKind } from './servers.js';
import type { PairSummary } from './pairs.js';
import type { TargetCheck } from './targets.js';

export interface BenchResults {
  date: string;
  node: string;
  platform: string;
  cpuModel: string;
  cores: number;
  durationS: number;
  warmupS: number;
  connections: number;
  cpuProfile: boolean;
  load: LoadResult[];
  /** The version of the benchmark's redis-server, for mock-redis and mock-redis-x2; undefined when they did not run. */
  redisVersion: string | undefined;
  /** Mock req/s divided by baseline req/s, per scenario: the median of the pairs. */
  rpsRatio: Record<string, number>;
  /** Each operation's interleaved pairs: the ratios pair by pair, medians, spread. */
  pairs: PairSummary[];
  /**
   * Baseline CPU per request divided by the mock's, per scenario: the req/s
   * ratio two CPU-bound servers would show, and much less disturbed by
   * other load on the machine than req/s.
   */
  cpuRatio: Record<string, number>;
  startup: StartupResult[];
  memory: MemoryResult[];
  /** Memory of the load-test servers when their load was over. */
  afterLoad: { server: ServerKind; rssMiB: number | undefined; peakRssMiB: number | undefined }[];
  targets: TargetCheck[];
  /** The machine's 1, 5 and 15 minute load averages: a busy machine disturbs every number. */
  loadAverage: { atStart: number[]; atEnd: number[] };
  /** False when a measured run had errors or non-2xx answers. */
  valid: boolean;
  notes: string[];
}

export function machine(): Pick<BenchResults, 'node' | 'platform' | 'cpuModel' | 'cores'> {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
  };
}

export function settings(config: BenchConfig, connections: number): Pick<BenchResults, 'durationS' | 'warmupS' | 'connections' | 'cpuProfile'> {
  return { durationS: config.durationS, warmupS: config.warmupS, connections, cpuProfile: config.cpuProfile };
}

/** Writes the results as JSON into `dir`, creating it; returns the file's path. */
export function writeResults(dir: string, name: string, results: object): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
