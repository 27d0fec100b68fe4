/**
 * `npm run bench`: the mock against a bare node:http baseline, each server in
 * its own child process, the load generator (autocannon) in this one; the
 * mock also on the Redis store, with one and two processes, on a
 * redis-server of the benchmark's own when `redis-server` is on PATH.
 *   BENCH_DURATION  measured seconds per operation and server (default 10)
 *   BENCH_WARMUP    unmeasured seconds of warm-up per operation and server (default 2)
 *   BENCH_PAIRS     interleaved baseline/mock pairs per operation (default 5)
 *   BENCH_CPU_PROF  1: run the load-test servers under --cpu-prof (profiles in bench/results/profiles)
 * Exits 1 when a run had errors or non-2xx answers; a missed target is only reported.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { BASELINE_BIN, CONNECTIONS, MOCK_BIN, PROFILES_DIR, readConfig, RESULTS_DIR, STARTUP_REPEATS } from './config.js';
import { killChildrenOnExit, stopAllChildren } from './children.js';
import { hadFailures } from './load.js';
import { measureIdleMemory } from './measure-memory.js';
import { measureLoad } from './measure-load.js';
import { measureStartup } from './measure-startup.js';
import { summarisePairs } from './pairs.js';
import { progress } from './progress.js';
import { renderReport, renderWarning } from './report.js';
import { machine, settings, writeResults, type BenchResults } from './results.js';
import { checkTargets } from './targets.js';

/**
 * Other processes' CPU during the starts, in % of one core, above which the
 * start-up times are called disturbed. Each start costs some kernel work
 * charged to neither process (about 15 ms, i.e. 5-25% of a core over a short
 * start, on an otherwise idle machine), so the bar is high.
 */
const STARTUP_OTHER_CPU_NOTE_PCT = 50;

async function main(): Promise<number> {
  const config = readConfig(process.env);
  for (const file of [MOCK_BIN, BASELINE_BIN]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const date = new Date().toISOString();
  const loadAverageAtStart = loadavg();
  const notes: string[] = [];

  progress(`Start-up: ${STARTUP_REPEATS} fresh starts of each server`);
  const startup = [await measureStartup('mock'), await measureStartup('baseline')];
  for (const s of startup) {
    if (s.otherCpuPct !== undefined && s.otherCpuPct > STARTUP_OTHER_CPU_NOTE_PCT) {
      notes.push(`start-up of ${s.server}: other processes used ${s.otherCpuPct.toFixed(0)}% of a core during the starts: wall times are disturbed`);
    }
  }

  progress('Idle memory: a fresh process of each server');
  const memory = [await measureIdleMemory('mock'), await measureIdleMemory('baseline')];
  if (memory.some((m) => m.idleRssMiB === undefined)) notes.push('no /proc here (not Linux?): memory and server CPU not measured');

  const { load, afterLoad, redisVersion } = await measureLoad(config, notes);

  const pairs = summarisePairs(load);
  const rpsRatio: Record<string, number> = {};
  const cpuRatio: Record<string, number> = {};
  for (const summary of pairs) {
    if (summary.medianRpsRatio !== undefined) rpsRatio[summary.scenario] = summary.medianRpsRatio;
    if (summary.medianCpuRatio !== undefined) cpuRatio[summary.scenario] = summary.medianCpuRatio;
  }
  const failed = load.filter(hadFailures);
  const results: BenchResults = {
    date,
    ...machine(),
    ...settings(config, CONNECTIONS),
    load,
    redisVersion,
    rpsRatio,
    cpuRatio,
    pairs,
    startup,
    memory,
    afterLoad,
    targets: checkTargets({ pairs, startup, memory }),
    loadAverage: { atStart: loadAverageAtStart, atEnd: loadavg() },
    valid: failed.length === 0,
    notes,
  };

  process.stdout.write(renderReport(results));
  const file = writeResults(RESULTS_DIR, config.cpuProfile ? 'profiled.json' : 'latest.json', results);
  process.stdout.write(`\nResults written to ${file}\n`);
  if (config.cpuProfile) process.stdout.write(`CPU profiles in ${PROFILES_DIR} (summarise with node dist/bench/profile-top.js FILE)\n`);

  if (failed.length > 0) {
    process.stderr.write(
      renderWarning([
        'INVALID RUN: some requests failed, so the numbers above do not measure the servers.',
        ...failed.map((r) => `${r.scenario} on ${r.server}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`),
      ]),
    );
    return 1;
  }
  return 0;
}

killChildrenOnExit();
try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(renderWarning([`benchmark failed: ${(error as Error).message}`]));
  process.exitCode = 1;
} finally {
  await stopAllChildren();
}
