import { formatTable } from './format-table.js';
import type { BenchResults } from './results.js';
import { SCENARIOS } from './scenarios.js';
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

  const loadRows: string[][] = [];
  for (const scenario of SCENARIOS) {
    for (const kind of SERVER_KINDS) {
      const r = results.load.find((l) => l.scenario === scenario.name && l.server === kind);
      if (!r) continue;
      const ratio = kind === 'mock' ? fixed(results.rpsRatio[scenario.name], 2) : '';
      loadRows.push([
        kind === 'mock' ? scenario.name : '',
        kind,
        whole(r.rpsMean),
        whole(r.rpsStddev),
        fixed(r.latencyMs.p50, 2),
        fixed(r.latencyMs.p99, 2),
        fixed(r.latencyMs.max, 1),
        String(r.non2xx),
        String(r.errors),
        whole(r.bytesPerResponse),
        `${fixed(r.serverCpuPct, 0)}%`,
        fixed(r.serverCpuUsPerResponse, 0),
        `${fixed(r.loadgenCpuPct, 0)}%`,
        `${fixed(r.otherCpuPct, 0)}%`,
        ratio,
      ]);
    }
  }
  sections.push(
    'Load\n' +
      formatTable(
        ['operation', 'server', 'req/s', '±sd', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'B/resp', 'server CPU', 'CPU µs/req', 'loadgen CPU', 'other CPU', 'mock/base'],
        loadRows,
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ) +
      '\nCPU per request, baseline / mock (the req/s ratio of two CPU-bound servers, robust to other load): ' +
      SCENARIOS.map((s) => `${s.name} ${fixed(results.cpuRatio[s.name], 2)}`).join(', '),
  );

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

/** A warning nobody can miss. */
export function renderWarning(lines: readonly string[]): string {
  const bar = '!'.repeat(78);
  return ['', bar, ...lines.map((line) => `!!! ${line}`), bar, ''].join('\n') + '\n';
}
