import { formatTable } from './format-table.js';
import { median } from './pairs.js';
import type { BenchResults } from './results.js';
import { REDIS_KINDS, SERVER_KINDS } from './servers.js';

const fixed = (value: number | undefined, digits: number): string =>
  value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);
const whole = (value: number): string => Math.round(value).toLocaleString('en-US');

/** The results as readable text tables. */
export function renderReport(results: BenchResults): string {
  const sections: string[] = [];
  sections.push(
    `Animal Store mock benchmark: ${results.date}\n` +
      `node ${results.node}, ${results.platform}, ${results.cpuModel} x ${results.cores} cores; ` +
      `${results.connections} connections, ${results.durationS} s per run after ${results.warmupS} s warm-up, 127.0.0.1; ` +
      `load average at start ${results.loadAverage.atStart.map((l) => l.toFixed(2)).join(' ')}` +
      (results.cpuProfile ? '\nUNDER THE CPU PROFILER: timings are not representative.' : ''),
  );

  sections.push(loadSection(results));
  const compared = comparisonSection(results);
  if (compared) sections.push(compared);

  const startupRows = results.startup.map((s) => [
    s.server,
    fixed(s.medianMs, 0),
    fixed(Math.min(...s.runsMs), 0),
    fixed(Math.max(...s.runsMs), 0),
    fixed(s.medianCpuMs, 0),
    `${fixed(s.otherCpuPct, 0)}%`,
    s.runsMs.map((ms) => ms.toFixed(0)).join(', '),
  ]);
  sections.push(
    'Start-up: spawn to first 200 answer of GET /v1/pets (wall time; CPU = the server\'s own CPU time until then)\n' +
      formatTable(
        ['server', 'median ms', 'min', 'max', 'CPU ms', 'other CPU', 'runs (ms)'],
        startupRows,
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
  );

  sections.push(memorySection(results));

  const targetRows = results.targets.map((t) => [
    t.holds === undefined ? 'N/A' : t.holds ? 'PASS' : 'MISS',
    t.target,
    `${fixed(t.actual, t.unit === '' ? 2 : 1)}${t.unit ? ` ${t.unit}` : ''}`,
    `${t.comparison} ${t.limit}${t.unit ? ` ${t.unit}` : ''}`,
  ]);
  sections.push('Targets\n' + formatTable(['', 'target', 'measured', 'wanted'], targetRows, ['l', 'l', 'r', 'l']));

  if (results.notes.length > 0) sections.push('Notes\n' + results.notes.map((note) => `- ${note}`).join('\n'));
  return sections.join('\n\n') + '\n';
}

/** Idle memory of fresh processes, and memory after the load of every server measured. */
function memorySection(results: BenchResults): string {
  const memoryRows = results.memory.map((m) => {
    const after = results.afterLoad.find((a) => a.server === m.server);
    return [m.server, fixed(m.idleRssMiB, 1), fixed(after?.rssMiB, 1), fixed(after?.peakRssMiB, 1)];
  });
  // The Redis kinds are measured under load only; mock-redis-x2's figures are the sum over its three processes.
  for (const after of results.afterLoad.filter((a) => REDIS_KINDS.includes(a.server))) {
    memoryRows.push([after.server, 'n/a', fixed(after.rssMiB, 1), fixed(after.peakRssMiB, 1)]);
  }
  return (
    `Memory (VmRSS, MiB): idle = fresh process, ${results.memory[0]?.requestsBefore ?? '?'} requests, ~1 s idle; mock-redis-x2: its primary and workers summed\n` +
      formatTable(['server', 'idle RSS', 'RSS after load', 'peak RSS (VmHWM)'], memoryRows, ['l', 'r', 'r', 'r'])
  );
}

/**
 * Per operation and server, the medians over the interleaved pairs; for
 * each server, the req/s ratio to the baseline round by round, its median
 * and its range.
 */
function loadSection(results: BenchResults): string {
  const rows: string[][] = [];
  const kinds = SERVER_KINDS.filter((kind) => results.pairs.some((summary) => summary.servers[kind]));
  for (const summary of results.pairs) {
    for (const kind of kinds) {
      const server = summary.servers[kind];
      if (!server) continue;
      const runs = results.load.filter((r) => r.scenario === summary.scenario && r.server === kind);
      const ratios = summary.rpsRatiosBy[kind] ?? [];
      const split = server.cpuUsSplit;
      rows.push([
        kind === 'baseline' ? summary.scenario : '',
        kind,
        whole(server.rps),
        fixed(server.p99Ms, 2),
        fixed(server.cpuUsPerRequest, 0) + (split ? ` = ${fixed(split.mock, 0)} + ${fixed(split.redis, 0)}` : ''),
        String(runs.reduce((n, r) => n + r.non2xx + r.errors, 0)),
        `${fixed(median(runs.flatMap((r) => (r.otherCpuPct === undefined ? [] : [r.otherCpuPct]))), 0)}%`,
        ratios.length > 0 ? `${fixed(median(ratios), 2)} (${range(ratios)})` : '',
        ratios.map((r) => r.toFixed(2)).join(' '),
        kind === 'baseline' ? '' : fixed(median(summary.cpuRatiosBy[kind] ?? []), 2),
      ]);
    }
  }
  return (
    `Load: ${results.pairs[0]?.pairs ?? 0} interleaved rounds per operation (${kinds.join(', ')}), medians over the rounds; ratios to the baseline of the same round\n` +
    formatTable(
      ['operation', 'server', 'req/s', 'p99 ms', 'CPU µs/req', 'failed', 'other CPU', '/ baseline (range)', 'round by round', 'CPU base/server'],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r'],
    ) +
    '\nCPU base/server: baseline CPU per request over the server\'s, the req/s ratio two CPU-bound servers would show, robust to other load.' +
    (kinds.some((kind) => REDIS_KINDS.includes(kind))
      ? '\nCPU µs/req of mock-redis and mock-redis-x2: every process doing the work, the mock (its workers too) + redis-server.'
      : '')
  );
}

/** Within each round: the console open over closed, the Redis store over the memory store and two processes over one. */
function comparisonSection(results: BenchResults): string | undefined {
  const rows = results.pairs.flatMap((summary) =>
    summary.comparisons.map((c, i) => [
      i === 0 ? summary.scenario : '',
      `${c.of} / ${c.over}`,
      `${fixed(c.medianRpsRatio, 2)} (${range(c.rpsRatios)})`,
      c.rpsRatios.map((r) => r.toFixed(2)).join(' '),
      `${fixed(c.medianCpuRatio, 2)} (${range(c.cpuRatios)})`,
    ]),
  );
  if (rows.length === 0) return undefined;
  return (
    `Compared within each round (the console open; the Redis store): req/s ratios, median (range)${results.redisVersion ? `; redis-server ${results.redisVersion}` : ''}\n` +
    formatTable(['operation', 'ratio', 'req/s', 'round by round', 'CPU µs/req'], rows, ['l', 'l', 'r', 'l', 'r']) +
    consoleLine(results) +
    '\nCPU µs/req: the first\'s CPU per request (all its processes, redis-server included) over the second\'s, median (range): above 1, a request costs more.' +
    `\nOn this ${results.cores}-core machine the load generator (autocannon, this process) and redis-server share the cores with the mock's ` +
    'processes, so two workers cannot show their real gain: mock-redis-x2 / mock-redis understates what a second process gives on a machine with a core for each.'
  );
}

/** What mock-console's open console received, so a reader sees it was following. */
function consoleLine(results: BenchResults): string {
  const runs = results.load.filter((r) => r.console !== undefined);
  if (runs.length === 0) return '';
  const per = (value: (r: (typeof runs)[number]) => number): string => fixed(median(runs.map(value)), 0);
  return (
    `\nmock-console: a client follows the shared journal's stream (GET /__mock/journal/stream) through every run, as an open console does; per run (median of ${runs.length}) it received ` +
    `${per((r) => r.console?.summaries ?? 0)} summary events counting ${per((r) => r.console?.requestsSummarised ?? 0)} requests, and ${per((r) => r.console?.entries ?? 0)} entries events.`
  );
}

const range = (values: readonly number[]): string => (values.length === 0 ? 'n/a' : `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`);

/** A warning nobody can miss. */
export function renderWarning(lines: readonly string[]): string {
  const bar = '!'.repeat(78);
  return ['', bar, ...lines.map((line) => `!!! ${line}`), bar, ''].join('\n') + '\n';
}
