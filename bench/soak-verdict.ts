import { EXPECTED_5XX_TEXT, type Counts } from './soak-tally.js';

/** What the soak reads every second. */
export interface Sample {
  /** Seconds since the load started. */
  t: number;
  alive: boolean;
  /** VmRSS and VmHWM (peak) from /proc, in MiB; undefined once the process is gone or off Linux. */
  rssMiB: number | undefined;
  peakRssMiB: number | undefined;
  /** The mock's last `process.memoryUsage()`, in MiB, with its age in seconds. */
  heap: { heapUsedMiB: number; heapTotalMiB: number; externalMiB: number; ageS: number } | undefined;
  /** Answers since the previous sample, by status. */
  answers: Counts;
  /** Connection errors since the previous sample. */
  errors: number;
}

export interface TimelineRow {
  /** The window's last second. */
  t: number;
  rssMiB: number | undefined;
  maxRssMiB: number | undefined;
  heapUsedMiB: number | undefined;
  heapTotalMiB: number | undefined;
  externalMiB: number | undefined;
  answersPerS: number;
  errors: number;
}

const maxOf = (values: readonly (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
};
const lastOf = <T>(values: readonly (T | undefined)[]): T | undefined => values.findLast((v) => v !== undefined);
const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** The samples in `rows` consecutive windows (fewer when there are fewer samples): the state at each window's end, its largest RSS, its rate. */
export function timeline(samples: readonly Sample[], rows: number): TimelineRow[] {
  const count = Math.min(rows, samples.length);
  const result: TimelineRow[] = [];
  for (let k = 0; k < count; k++) {
    const window = samples.slice(Math.floor((k * samples.length) / count), Math.floor(((k + 1) * samples.length) / count));
    const last = window[window.length - 1] as Sample;
    const previousT = k === 0 ? 0 : (samples[Math.floor((k * samples.length) / count) - 1] as Sample).t;
    const heap = lastOf(window.map((s) => s.heap));
    result.push({
      t: last.t,
      rssMiB: lastOf(window.map((s) => s.rssMiB)),
      maxRssMiB: maxOf(window.map((s) => s.rssMiB)),
      heapUsedMiB: heap?.heapUsedMiB,
      heapTotalMiB: heap?.heapTotalMiB,
      externalMiB: heap?.externalMiB,
      answersPerS: sum(window.map((s) => sum(Object.values(s.answers)))) / Math.max(1e-9, last.t - previousT),
      errors: sum(window.map((s) => s.errors)),
    });
  }
  return result;
}

export interface LevelOff {
  middleMaxMiB: number;
  lastMaxMiB: number;
  /** lastMax / middleMax − 1 */
  growth: number;
  levelled: boolean;
}

/**
 * Whether RSS stopped growing: the largest value of the last third of the
 * series against the largest of the middle third (the first third is the
 * climb from start-up, which any process has). Undefined with fewer than
 * three values.
 */
export function levelOff(rssMiB: readonly number[], tolerance: number): LevelOff | undefined {
  const n = rssMiB.length;
  if (n < 3) return undefined;
  const middleMaxMiB = Math.max(...rssMiB.slice(Math.floor(n / 3), Math.floor((2 * n) / 3)));
  const lastMaxMiB = Math.max(...rssMiB.slice(Math.floor((2 * n) / 3)));
  const growth = lastMaxMiB / middleMaxMiB - 1;
  return { middleMaxMiB, lastMaxMiB, growth, levelled: growth < tolerance };
}

export interface Verdict {
  check: string;
  pass: boolean;
  detail: string;
}

export interface VerdictInput {
  /** Why the mock stopped before the end, if it did (`signal SIGABRT`, `exit code 134`). */
  crash: string | undefined;
  unexpected5xx: number;
  level: LevelOff | undefined;
  largestRssMiB: number | undefined;
  rssCeilingMiB: number;
  tolerance: number;
}

/** The four PASS/FAIL lines of the soak. */
export function verdicts(input: VerdictInput): Verdict[] {
  const { level, largestRssMiB: largest } = input;
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  return [
    { check: 'no crash', pass: input.crash === undefined, detail: input.crash ?? 'the mock answered to the end' },
    { check: 'no unexpected 5xx', pass: input.unexpected5xx === 0, detail: `${input.unexpected5xx} 5xx other than ${EXPECTED_5XX_TEXT}` },
    {
      check: 'RSS levelled off',
      pass: input.crash === undefined && level?.levelled === true,
      detail:
        level === undefined
          ? 'too few samples'
          : `largest RSS of the last third ${level.lastMaxMiB.toFixed(1)} MiB, of the middle third ${level.middleMaxMiB.toFixed(1)} MiB: ${pct(level.growth)} (under ${pct(input.tolerance)} wanted)` +
            (input.crash === undefined ? '' : '; the process died'),
    },
    {
      check: 'largest RSS under the ceiling',
      pass: largest !== undefined && largest < input.rssCeilingMiB,
      detail: `${largest === undefined ? 'not measured' : `${largest.toFixed(1)} MiB`}, ceiling ${input.rssCeilingMiB} MiB`,
    },
  ];
}
