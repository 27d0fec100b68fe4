import { API_KEY, CONNECTIONS, PROFILES_DIR, type BenchConfig } from './config.js';
import { followConsole, followedDuring, type ConsoleFollower } from './console-follower.js';
import { hadFailures, runLoad, type LoadResult } from './load.js';
import { readMemoryMiB, readTree } from './proc-stats.js';
import { progress } from './progress.js';
import { renderWarning } from './report.js';
import type { BenchResults } from './results.js';
import { SCENARIOS } from './scenarios.js';
import { REDIS_MISSING_NOTE, startBenchRedis, type BenchRedis } from './redis-server.js';
import { REDIS_KINDS, SERVER_KINDS, startServer, type RunningServer, type ServerKind } from './servers.js';
import { smokeCheck } from './smoke-check.js';

/** Other processes' CPU during a load run, in % of one core, above which the run is called disturbed. */
const OTHER_CPU_NOTE_PCT = 15;

/**
 * The servers run side by side (an idle one costs no CPU). Per operation,
 * each gets a warm-up, then the measured runs are interleaved, baseline,
 * bare Hono, mock, `pairs` times (A B C A B C …): the machine is shared, and
 * one run can move a ratio by 0.3, so only ratios within a pair (one round)
 * are compared.
 */
/** What makes one run's numbers suspect, in words. */
function runNotes(scenario: string, kind: string, pair: number, measured: LoadResult): string[] {
  const notes: string[] = [];
  if (measured.otherCpuPct !== undefined && measured.otherCpuPct > OTHER_CPU_NOTE_PCT) {
    notes.push(`${scenario} on ${kind}, pair ${pair}: other processes used ${measured.otherCpuPct.toFixed(0)}% of a core during the run: the machine was not quiet, so this run is disturbed`);
  }
  if (measured.serverCpuPct !== undefined && measured.serverCpuPct < 90 && measured.loadgenCpuPct > 90) {
    notes.push(
      `${scenario} on ${kind}, pair ${pair}: the load generator (${measured.loadgenCpuPct.toFixed(0)}% CPU) ran out of CPU before the server (${measured.serverCpuPct.toFixed(0)}%): its req/s is a lower bound`,
    );
  }
  return notes;
}

/**
 * `--cpu-prof` for a server; a cluster's workers inherit it, so with
 * `--workers` each process writes node's default name (its pid in it)
 * rather than one file they would overwrite.
 */
const profileArgs = (kind: ServerKind): string[] => [
  ...['--cpu-prof', '--cpu-prof-dir', PROFILES_DIR],
  ...(kind === 'mock-redis-x2' ? [] : ['--cpu-prof-name', `${kind}.cpuprofile`]),
];

type Measured = Pick<BenchResults, 'load' | 'afterLoad' | 'redisVersion'>;

/**
 * Every server under load. The Redis kinds get a redis-server of their own
 * for the whole measurement, stopped at the end; without the command they
 * are left out, with a note saying so.
 */
export async function measureLoad(config: BenchConfig, notes: string[]): Promise<Measured> {
  progress('Redis: starting redis-server for mock-redis and mock-redis-x2');
  const redis = await startBenchRedis();
  if (!redis) notes.push(REDIS_MISSING_NOTE);
  try {
    return { ...(await measureServers(config, notes, redis)), redisVersion: redis?.version };
  } finally {
    await redis?.stop();
  }
}

async function measureServers(config: BenchConfig, notes: string[], redis: BenchRedis | undefined): Promise<Omit<Measured, 'redisVersion'>> {
  const servers: RunningServer[] = [];
  for (const kind of SERVER_KINDS.filter((k) => redis || !REDIS_KINDS.includes(k))) {
    servers.push(await startServer(kind, { nodeArgs: config.cpuProfile ? profileArgs(kind) : [], redis }));
  }
  // The console stays open on mock-console's journal from here to the end, as a QA's browser tab would.
  const consoles = new Map<RunningServer, ConsoleFollower>();
  for (const server of servers.filter((s) => s.kind === 'mock-console')) consoles.set(server, await followConsole(server.origin));
  try {
    return await measureRounds(config, notes, servers, consoles);
  } finally {
    for (const follower of consoles.values()) await follower.stop();
  }
}

/**
 * mock-console runs listPets only: its target is listPets with the
 * console open against the same run without it (the mock's row), and five
 * more rounds of each operation would lengthen the benchmark by a fifth.
 */
const runs = (server: RunningServer, scenario: string): boolean => server.kind !== 'mock-console' || scenario === 'listPets';

async function measureRounds(config: BenchConfig, notes: string[], servers: RunningServer[], consoles: Map<RunningServer, ConsoleFollower>): Promise<Omit<Measured, 'redisVersion'>> {
  const smoke = await smokeCheck(servers);
  notes.push(...smoke.notes);
  if (smoke.problems.length > 0) {
    process.stderr.write(renderWarning(['A server answers wrongly; not measuring.', ...smoke.problems]));
    throw new Error('the smoke check failed');
  }

  const load: LoadResult[] = [];
  // SERVER_KINDS' order in each pair: the baseline first.
  const ordered = servers;
  for (const scenario of SCENARIOS) {
    for (const server of ordered.filter((s) => runs(s, scenario.name))) {
      progress(`Load: ${scenario.name} (${scenario.label}) on ${server.kind}: ${config.warmupS} s warm-up`);
      await startAfresh(server, scenario.name);
      const warmup = await runLoad(server, scenario, config.warmupS, CONNECTIONS);
      if (hadFailures(warmup)) {
        process.stderr.write(
          renderWarning([`warm-up of ${scenario.name} on ${server.kind}: ${warmup.non2xx} non-2xx, ${warmup.errors} errors, ${warmup.timeouts} timeouts`]),
        );
      }
    }
    for (let pair = 1; pair <= config.pairs; pair++) {
      for (const server of ordered.filter((s) => runs(s, scenario.name))) {
        await startAfresh(server, scenario.name);
        const follower = consoles.get(server);
        const before = follower?.counts();
        const measured = { ...(await runLoad(server, scenario, config.durationS, CONNECTIONS)), pair };
        if (follower && before) {
          measured.console = followedDuring(before, follower.counts());
          if (measured.console.entries + measured.console.summaries === 0) {
            notes.push(`${scenario.name} on ${server.kind}, pair ${pair}: the open console received no event during the run: it was not following`);
          }
        }
        load.push(measured);
        progress(
          `  ${scenario.name}, pair ${pair}/${config.pairs}, ${server.kind}: ${Math.round(measured.rpsMean)} req/s, p99 ${measured.latencyMs.p99.toFixed(2)} ms, ` +
            `${measured.non2xx} non-2xx, ${measured.errors} errors, server CPU ${measured.serverCpuPct?.toFixed(0) ?? 'n/a'}%, ` +
            `other CPU ${measured.otherCpuPct?.toFixed(0) ?? 'n/a'}%`,
        );
        notes.push(...runNotes(scenario.name, server.kind, pair, measured));
      }
    }
  }
  // Summed over a `--workers` mock's processes (the peaks too, so a bound: each process's own peak may come at another time).
  const afterLoad = servers.map((server) => ({
    server: server.kind,
    rssMiB: readTree(server.child.pid, (pid) => readMemoryMiB(pid, 'VmRSS')),
    peakRssMiB: readTree(server.child.pid, (pid) => readMemoryMiB(pid, 'VmHWM')),
  }));
  return { load, afterLoad };
}

/**
 * Before each createPet run on a mock: its catalogue back to the start
 * (POST /__mock/reset). At ~19,000 creates a second, five rounds of 10 s
 * and a warm-up add about a million animals, past the most `--max-pets`
 * allows, and the mock would measure 507 catalogue_full. A create costs
 * the same whatever the catalogue holds (an append), so the runs compare
 * alike with the baselines, which keep every animal.
 */
async function startAfresh(server: RunningServer, scenario: string): Promise<void> {
  if (scenario !== 'createPet' || !server.kind.startsWith('mock')) return;
  const res = await fetch(`${server.origin}/__mock/reset`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`POST /__mock/reset on ${server.kind} answered ${res.status}`);
}
