import { formatTable } from './format-table.js';
import { median } from './pairs.js';
import type { BenchResults } from './results.js';
import { SERVER_KINDS } from './servers.js';

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

  const memoryRows = results.memory.map((m) => {
    const after = results.afterLoad.find((a) => a.server === m.server);
    return [m.server, fixed(m.idleRssMiB, 1), fixed(after?.rssMiB, 1), fixed(after?.peakRssMiB, 1)];
  });
  sections.push(
    `Memory (VmRSS, MiB): idle = fresh process, ${results.memory[0]?.requestsBefore ?? '?'} requests, ~1 s idle\n` +
      formatTable(['server', 'idle RSS', 'RSS after load', 'peak RSS (VmHWM)'], memoryRows, ['l', 'r', 'r', 'r']),
  );

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

/**
 * Per operation and server, the medians over the interleaved pairs; for the
 * mock, the req/s ratio pair by pair, its median and its range.
 */
function loadSection(results: BenchResults): string {
  const rows: string[][] = [];
  for (const summary of results.pairs) {
    for (const kind of SERVER_KINDS) {
      const server = summary.servers[kind];
      if (!server) continue;
      const runs = results.load.filter((r) => r.scenario === summary.scenario && r.server === kind);
      const mock = kind === 'mock';
      const ratios = summary.rpsRatiosBy[kind] ?? [];
      rows.push([
        kind === 'baseline' ? summary.scenario : '',
        kind,
        whole(server.rps),
        fixed(server.p99Ms, 2),
        fixed(server.cpuUsPerRequest, 0),
        String(runs.reduce((n, r) => n + r.non2xx + r.errors, 0)),
        `${fixed(median(runs.flatMap((r) => (r.otherCpuPct === undefined ? [] : [r.otherCpuPct]))), 0)}%`,
        ratios.length > 0 ? `${fixed(median(ratios), 2)} (${range(ratios)})` : '',
        ratios.map((r) => r.toFixed(2)).join(' '),
        mock ? fixed(summary.medianCpuRatio, 2) : '',
      ]);
    }
  }
  return (
    `Load: ${results.pairs[0]?.pairs ?? 0} interleaved rounds per operation (baseline, bare Hono, mock), medians over the rounds; ratios to the baseline of the same round\n` +
    formatTable(
      ['operation', 'server', 'req/s', 'p99 ms', 'CPU µs/req', 'failed', 'other CPU', '/ baseline (range)', 'round by round', 'CPU base/mock'],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r'],
    ) +
    '\nCPU base/mock: baseline CPU per request over the mock\'s, the req/s ratio two CPU-bound servers would show, robust to other load.'
  );
}

const range = (values: readonly number[]): string => (values.length === 0 ? 'n/a' : `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`);

/** A warning nobody can miss. */
export function renderWarning(lines: readonly string[]): string {
  const bar = '!'.repeat(78);
  return ['', bar, ...lines.map((line) => `!!! ${line}`), bar, ''].join('\n') + '\n';
}
