import { join } from 'node:path';
import { packageRoot } from '../src/shared/package-root.js';

/** The project folder (the one holding package.json), from `dist/bench/` as from `bench/`. */
export const ROOT = packageRoot();
export const MOCK_BIN = join(ROOT, 'dist', 'src', 'mock', 'bin.js');
export const BASELINE_BIN = join(ROOT, 'dist', 'bench', 'baseline-server.js');
export const BARE_HONO_BIN = join(ROOT, 'dist', 'bench', 'bare-hono-server.js');
export const BARE_PROXY_BIN = join(ROOT, 'dist', 'bench', 'bare-proxy-server.js');
/** The catalogue the mock serves by default; the baseline serves the same file. */
export const FIXTURE = join(ROOT, 'fixtures', 'pets.json');
export const RESULTS_DIR = join(ROOT, 'bench', 'results');
export const PROFILES_DIR = join(RESULTS_DIR, 'profiles');

/** All traffic stays on the loopback interface. */
export const HOST = '127.0.0.1';
/** The mock's default key (src/mock/cli-options.ts). */
export const API_KEY = 'animal-store-dev-key';
export const CONNECTIONS = 50;
export const STARTUP_REPEATS = 5;
export const POLL_INTERVAL_MS = 5;
export const READY_TIMEOUT_MS = 15_000;
export const IDLE_WAIT_MS = 1_000;
/** Requests of each operation sent before the idle memory is read. */
export const MEMORY_WARM_REQUESTS = 10;

export interface BenchConfig {
  /** Measured seconds per scenario and server (BENCH_DURATION, default 10). */
  durationS: number;
  /** Unmeasured seconds before each measured run (BENCH_WARMUP, default 2). */
  warmupS: number;
  /** BENCH_CPU_PROF=1: run the load-test servers under `node --cpu-prof`. */
  cpuProfile: boolean;
  /** Interleaved baseline/mock pairs per operation (BENCH_PAIRS, default 5). */
  pairs: number;
}

export function readConfig(env: NodeJS.ProcessEnv): BenchConfig {
  return {
    durationS: seconds(env, 'BENCH_DURATION', 10),
    warmupS: seconds(env, 'BENCH_WARMUP', 2),
    cpuProfile: env.BENCH_CPU_PROF === '1',
    pairs: Math.round(seconds(env, 'BENCH_PAIRS', 5)),
  };
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 3600) {
    throw new Error(`${name} must be a number of seconds above 0 (at most 3600), got ${JSON.stringify(text)}`);
  }
  return value;
}
