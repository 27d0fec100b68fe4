/**
 * How long the full contract suite takes against the local mock.
 *
 *   npm run bench:contract            (BENCH_RUNS=N, default 7)
 *
 * Measures, in the same run:
 * - cli: `animal-store-contract --base-url … --reporter json` as a user runs
 *   it, wall time from spawn to exit (process start, loading prism and
 *   dredd-transactions, every rule, the report);
 * - in-process: runSuite() again in a warm process (the rules alone);
 * - baseline: the same number of requests as one suite run sends, as plain
 *   fetch calls with the same concurrency and no checks, in the same warm
 *   process: what the HTTP traffic alone costs.
 * - growth: the CLI's wall time at each --examples of BENCH_EXAMPLES
 *   (default 0,25,100,400), to show how the search's cost grows.
 * - compare: `--compare-with` between two mocks against a single run,
 *   alternated (contract-compare.ts).
 * The mock runs in its own process, with a fresh catalogue for each CLI run.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createResponseValidator } from '../src/document/response-validator.js';
import { packageRoot } from '../src/shared/package-root.js';
import { DEFAULT_EXAMPLES } from '../src/contract-tests/cli-options.js';
import { runSuite } from '../src/contract-tests/run-suite.js';
import { measureCompare } from './contract-compare.js';

const root = packageRoot();
const runs = Number(process.env.BENCH_RUNS ?? 7);
const KEY = 'bench-key';

function startMock(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, 'dist/src/mock/bin.js'), '--port', '0', '--quiet', '--log-format', 'pretty', '--api-key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+\/v1)/.exec(out);
      if (match) resolve({ url: match[1] as string, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`mock exited ${code}`)));
  });
}

function timeCli(url: string, examples = DEFAULT_EXAMPLES): Promise<number> {
  const started = performance.now();
  const args = ['--base-url', url, '--api-key', KEY, '--reporter', 'json', '--output', '/dev/null', '--examples', String(examples), '--seed', '1'];
  const child = spawn(process.execPath, [join(root, 'dist/src/contract-tests/bin.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`the suite exited ${code}`)))));
}

async function timeBaseline(url: string, requests: number, concurrency: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < requests) {
      const response = await fetch(`${url}/pets?limit=20`, { headers: { authorization: `Bearer ${KEY}` } });
      await response.text();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - started;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const range = (values: number[]): [number, number] => [Math.round(Math.min(...values)), Math.round(Math.max(...values))];

const cli: number[] = [];
const inProcess: number[] = [];
const baseline: number[] = [];
let requests = 0;
const validator = await createResponseValidator();
for (let i = 0; i < runs; i++) {
  const mock = await startMock();
  try {
    cli.push(await timeCli(mock.url));
    const started = performance.now();
    const run = await runSuite({ baseUrl: mock.url, apiKey: KEY, validator, seed: 1 });
    inProcess.push(performance.now() - started);
    if (!run.ok || !run.report.ok) throw new Error('the suite did not pass against the mock');
    requests = run.report.growth?.requests ?? 0;
    baseline.push(await timeBaseline(mock.url, requests, 8));
  } finally {
    mock.stop();
  }
}

const growth: Array<{ examples: number; cliMedianMs: number; cliRangeMs: [number, number] }> = [];
for (const examples of (process.env.BENCH_EXAMPLES ?? '0,25,100,400').split(',').map(Number)) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const mock = await startMock();
    try {
      times.push(await timeCli(mock.url, examples));
    } finally {
      mock.stop();
    }
  }
  growth.push({ examples, cliMedianMs: Math.round(median(times)), cliRangeMs: range(times) });
}

const compare = await measureCompare(runs, startMock, KEY, validator);

const result = {
  date: new Date().toISOString(),
  node: process.version,
  runs,
  requestsPerSuite: requests,
  cliMedianMs: Math.round(median(cli)),
  cliRangeMs: range(cli),
  inProcessMedianMs: Math.round(median(inProcess)),
  baselineMedianMs: Math.round(median(baseline)),
  inProcessOverBaseline: Number((median(inProcess) / median(baseline)).toFixed(2)),
  examples: DEFAULT_EXAMPLES,
  growth,
  target: 'full suite with the default --examples against the local mock under 3000 ms (cli, wall time)',
  holds: median(cli) < 3000,
  compare,
};
console.log(`contract suite against the local mock, ${runs} runs, ${requests} requests per run (median):`);
console.log(`  CLI, process start to exit:  ${result.cliMedianMs} ms (${result.cliRangeMs.join('–')})   target < 3000 ms: ${result.holds ? 'holds' : 'MISSED'}`);
console.log(`  runSuite in a warm process:  ${result.inProcessMedianMs} ms`);
console.log(`  baseline, plain fetch:       ${result.baselineMedianMs} ms   (runSuite / baseline = ${result.inProcessOverBaseline}x)`);
console.log(`  --compare-with, two mocks:   ${compare.compareMedianMs} ms (${compare.compareRangeMs.join('–')}) against ${compare.singleMedianMs} ms (${compare.singleRangeMs.join('–')}) alone = ${compare.compareOverSingle}x; ${compare.requestsCompare} requests against ${compare.requestsSingle}   target < 2x: ${compare.holds ? 'holds' : 'MISSED'}`);
for (const g of growth) console.log(`  --examples ${String(g.examples).padEnd(4)} CLI ${g.cliMedianMs} ms (${g.cliRangeMs.join('–')})`);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/contract-suite.json'), `${JSON.stringify(result, null, 2)}\n`);
