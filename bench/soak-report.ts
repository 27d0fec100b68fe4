import { markdownTable } from './markdown-table.js';
import type { Stream } from './soak-traffic.js';
import { countUnexpected5xx, EXPECTED_5XX_TEXT, isUnexpected5xx, totals, type Counts } from './soak-tally.js';
import type { Sample, TimelineRow, Verdict } from './soak-verdict.js';

export interface SoakResults {
  date: string;
  node: string;
  platform: string;
  cpuModel: string;
  cores: number;
  minutes: number;
  /** Seconds the load actually ran (shorter when the mock died). */
  ranS: number;
  mockCommand: string;
  rssCeilingMiB: number;
  idleRssMiB: number | undefined;
  largestRssMiB: number | undefined;
  streams: { name: string; label: string; connections: number }[];
  answers: Record<string, Counts>;
  errors: Record<string, Counts>;
  timeline: TimelineRow[];
  verdicts: Verdict[];
  /** The mock's last output when it died. */
  crashOutput: string | undefined;
  /** How the mock ended when stopped with SIGTERM at the end. */
  stopped: string | undefined;
  samples: Sample[];
}

const mib = (value: number | undefined): string => (value === undefined ? 'n/a' : value.toFixed(1));
const whole = (value: number): string => Math.round(value).toLocaleString('en-US');
const byKey = (a: string, b: string): number => parseInt(a) - parseInt(b) || a.localeCompare(b);

/** The soak's report in markdown: set-up, RSS and heap over time, answers by status, errors, the verdicts. */
export function renderSoakReport(r: SoakResults): string {
  const sections: string[] = [];
  sections.push(
    `### Soak: ${r.date}, ${r.minutes} min wanted, ${whole(r.ranS)} s run\n\n` +
      `node ${r.node}, ${r.platform}, ${r.cpuModel} x ${r.cores} cores. The mock: \`${r.mockCommand}\`; idle RSS before the load ${mib(r.idleRssMiB)} MiB.`,
  );
  sections.push(
    'RSS (from /proc) and heap (`process.memoryUsage()`), MiB, at the end of each tenth of the run; largest RSS within it; answers a second over it.\n\n' +
      markdownTable(
        ['second', 'RSS', 'largest RSS', 'heapUsed', 'heapTotal', 'external', 'answers/s', 'errors'],
        r.timeline.map((row) => [
          String(row.t),
          mib(row.rssMiB),
          mib(row.maxRssMiB),
          mib(row.heapUsedMiB),
          mib(row.heapTotalMiB),
          mib(row.externalMiB),
          whole(row.answersPerS),
          String(row.errors),
        ]),
        ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
  );
  sections.push(statusSection(r));
  const all = totals(r.answers);
  const unexpected = Object.entries(all).filter(([key]) => isUnexpected5xx(key));
  sections.push(
    `Largest RSS: **${mib(r.largestRssMiB)} MiB** (ceiling ${r.rssCeilingMiB} MiB). ` +
      `5xx other than ${EXPECTED_5XX_TEXT}: **${countUnexpected5xx(all)}**` +
      (unexpected.length > 0 ? ` (${unexpected.map(([key, n]) => `${key}: ${n}`).join(', ')})` : '') +
      `. Stopped at the end: ${r.stopped ?? 'n/a'}.\n\n` +
      r.verdicts.map((v) => `${v.pass ? 'PASS' : 'FAIL'}  ${v.check}: ${v.detail}`).join('\n'),
  );
  if (r.crashOutput) sections.push(`The mock's last output:\n\n\`\`\`text\n${r.crashOutput.trim()}\n\`\`\``);
  return sections.join('\n\n') + '\n';
}

/** One row per stream: its connections, answers by status, connection errors by code. */
function statusSection(r: SoakResults): string {
  const all = totals(r.answers);
  const keys = Object.keys(all).sort(byKey);
  const rows = r.streams.map((s) => [
    s.name,
    String(s.connections),
    ...keys.map((key) => (r.answers[s.name]?.[key] ? whole(r.answers[s.name]?.[key] as number) : '')),
    Object.entries(r.errors[s.name] ?? {})
      .map(([code, n]) => `${code} ${n}`)
      .join(', '),
  ]);
  rows.push(['all', '', ...keys.map((key) => whole(all[key] as number)), Object.entries(totals(r.errors)).map(([code, n]) => `${code} ${n}`).join(', ')]);
  return (
    'Answers by status and stream (connection errors by code):\n\n' +
    markdownTable(['stream', 'conns', ...keys, 'errors'], rows, ['l', 'r', ...keys.map(() => 'r' as const), 'l']) +
    '\n\n' +
    r.streams.map((s) => `- \`${s.name}\`: ${s.label}`).join('\n')
  );
}

/** The streams as the results keep them. */
export const describeStreams = (streams: readonly Stream[]): SoakResults['streams'] =>
  streams.map(({ name, label, connections }) => ({ name, label, connections }));
