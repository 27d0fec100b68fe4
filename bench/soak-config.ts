import { join } from 'node:path';
import { ROOT } from './config.js';

/** The wrapper that runs the built mock and reports its heap (bench/soak-mock.ts). */
export const SOAK_MOCK_BIN = join(ROOT, 'dist', 'bench', 'soak-mock.js');
export const SCENARIOS_DIR = join(ROOT, 'scenarios');

/** The mock's defaults the load is shaped around (docs/mock.md, "The command line"). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SESSIONS = 100;
/** Journal entries keep at most this much of a path (docs/admin-and-console.md, "The admin API"). */
export const JOURNAL_PATH_CLIP = 1024;

/** Default largest RSS allowed, in MiB: the "most memory the defaults allow" (docs/reference.md, Bounds; src/mock/memory-ceiling.ts), about 2.1 GiB. */
export const DEFAULT_RSS_CEILING_MIB = 2135;
/**
 * RSS has levelled off when the largest RSS of the last third of the run is
 * less than this much above the largest of the middle third (0.1 = 10 %).
 */
export const LEVEL_OFF_TOLERANCE = 0.1;
export const SAMPLE_INTERVAL_MS = 1000;
/** Rows of the RSS and heap table: one per tenth of the run. */
export const TIMELINE_ROWS = 10;

export interface SoakConfig {
  minutes: number;
  /** `--proxy`: the mock measured runs in proxy mode in front of a second, plain mock (bench/soak-target.ts). */
  proxy: boolean;
  /** SOAK_RSS_CEILING_MIB, default DEFAULT_RSS_CEILING_MIB. */
  rssCeilingMiB: number;
}

/** `--minutes N` (default 10; fractions allowed, e.g. 0.5), `--proxy` and SOAK_RSS_CEILING_MIB; an Error naming the bad value. */
export function readSoakConfig(argv: readonly string[], env: NodeJS.ProcessEnv): SoakConfig {
  let minutes = 10;
  let proxy = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--minutes=') ? ['--minutes', arg.slice('--minutes='.length)] : [arg, undefined];
    if (flag === '--proxy') proxy = true;
    else if (flag === '--minutes') minutes = positive('--minutes', inline ?? argv[++i], 24 * 60);
    else throw new Error(`unknown argument ${JSON.stringify(arg)}; usage: npm run bench:soak -- [--minutes N] [--proxy]`);
  }
  const ceiling = env.SOAK_RSS_CEILING_MIB;
  return { minutes, proxy, rssCeilingMiB: ceiling === undefined || ceiling === '' ? DEFAULT_RSS_CEILING_MIB : positive('SOAK_RSS_CEILING_MIB', ceiling, 1024 * 1024) };
}

function positive(name: string, text: string | undefined, max: number): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new Error(`${name} must be a number above 0 (at most ${max}), got ${JSON.stringify(text ?? '')}`);
  }
  return value;
}
