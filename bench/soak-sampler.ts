import type { Child } from './children.js';
import { readMemoryMiB } from './proc-stats.js';
import { progress } from './progress.js';
import { SAMPLE_INTERVAL_MS } from './soak-config.js';
import { countUnexpected5xx, totals, type Tally } from './soak-tally.js';
import type { Sample } from './soak-verdict.js';

const MiB = 1024 * 1024;

/** The mock's heap as it last reported it over IPC, and when (performance.now()). */
export interface HeapReport {
  memory: NodeJS.MemoryUsage;
  at: number;
}

export interface Sampler {
  samples: Sample[];
  /** The largest VmHWM read so far, in MiB: the peak between samples too. */
  peakRssMiB(): number | undefined;
  /** Takes a last sample and stops. */
  stop(): void;
}

/**
 * Reads the mock every second: RSS and its peak from /proc, its last heap
 * report, the answers and errors since the previous second, whether it
 * lives; a progress line every `progressEvery` samples.
 */
export function startSampler(child: Child, lastHeap: () => HeapReport | undefined, tally: Tally, elapsedS: () => number, progressEvery: number): Sampler {
  const samples: Sample[] = [];
  let peak: number | undefined;
  const take = (): void => {
    const report = lastHeap();
    const rssMiB = readMemoryMiB(child.pid, 'VmRSS');
    peak = Math.max(peak ?? 0, readMemoryMiB(child.pid, 'VmHWM') ?? 0) || undefined;
    const heap = report && {
      heapUsedMiB: report.memory.heapUsed / MiB,
      heapTotalMiB: report.memory.heapTotal / MiB,
      externalMiB: report.memory.external / MiB,
      ageS: (performance.now() - report.at) / 1000,
    };
    const alive = !child.exited();
    samples.push({ t: Math.round(elapsedS()), alive, rssMiB, peakRssMiB: peak, heap, ...tally.takeSecond() });
    if (samples.length % progressEvery === 0) {
      progress(
        `  ${samples.length} s: RSS ${rssMiB?.toFixed(0) ?? 'n/a'} MiB, heapUsed ${heap?.heapUsedMiB.toFixed(0) ?? 'n/a'} MiB, ` +
          `unexpected 5xx ${countUnexpected5xx(totals(tally.answers))}, ${alive ? 'alive' : 'dead'}`,
      );
    }
  };
  const timer = setInterval(take, SAMPLE_INTERVAL_MS);
  return {
    samples,
    peakRssMiB: () => peak,
    stop: () => {
      clearInterval(timer);
      take();
    },
  };
}
