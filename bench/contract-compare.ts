/**
 * What `--compare-with` costs against a single run: the CLI's wall time for
 * one target and for two (each a fresh local mock), alternated run by run so
 * the machine's load falls on both alike, and the requests each sends.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ResponseValidator } from '../src/document/response-validator.js';
import { runDrift } from '../src/contract-tests/drift/run-drift.js';
import type { SuiteReport } from '../src/verdict/report.js';
import { packageRoot } from '../src/shared/package-root.js';

type Mock = { url: string; stop: () => void };

export interface CompareResult {
  singleMedianMs: number;
  compareMedianMs: number;
  compareOverSingle: number;
  singleRangeMs: [number, number];
  compareRangeMs: [number, number];
  /** Requests the rules sent: one target, then both (a drift run of two like targets sends nothing more). */
  requestsSingle: number;
  requestsCompare: number;
  target: string;
  holds: boolean;
}

function timeCli(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(packageRoot(), 'dist/src/contract-tests/bin.js'), ...args, '--reporter', 'json', '--output', '/dev/null', '--seed', '1'], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`the suite exited ${code}`)))));
}

/** Requests a report's rules sent: generated rules keep only failing exchanges, their cases count what they sent. */
const sent = (report: SuiteReport): number => report.results.reduce((n, r) => n + Math.max(r.cases ?? 0, r.exchanges.length), 1);

export async function measureCompare(runs: number, startMock: () => Promise<Mock>, key: string, validator: ResponseValidator): Promise<CompareResult> {
  const single: number[] = [];
  const compare: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [a, b, c] = await Promise.all([startMock(), startMock(), startMock()]);
    try {
      // Alternated: which goes first changes each run.
      const one = () => timeCli(['--base-url', a.url, '--api-key', key]).then((ms) => single.push(ms));
      const two = () => timeCli(['--base-url', b.url, '--api-key', key, '--compare-with', c.url]).then((ms) => compare.push(ms));
      if (i % 2 === 0) await one().then(two);
      else await two().then(one);
    } finally {
      for (const mock of [a, b, c]) mock.stop();
    }
  }
  const [a, b] = await Promise.all([startMock(), startMock()]);
  let requests: [number, number];
  try {
    const run = await runDrift({ baseUrl: a.url, apiKey: key, validator, seed: 1, compareWith: { baseUrl: b.url, apiKey: key } });
    if (!run.ok || run.report.drift.groups.length > 0) throw new Error('the mock drifted from itself');
    requests = [sent(run.report), sent(run.report) + sent(run.other)];
  } finally {
    a.stop();
    b.stop();
  }
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
  const range = (values: number[]): [number, number] => [Math.round(Math.min(...values)), Math.round(Math.max(...values))];
  return {
    singleMedianMs: Math.round(median(single)),
    compareMedianMs: Math.round(median(compare)),
    compareOverSingle: Number((median(compare) / median(single)).toFixed(2)),
    singleRangeMs: range(single),
    compareRangeMs: range(compare),
    requestsSingle: requests[0],
    requestsCompare: requests[1],
    target: 'a compare run of two local mocks under 2x a single run (cli, wall time)',
    holds: median(compare) < 2 * median(single),
  };
}
