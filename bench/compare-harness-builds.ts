/**
 * Two builds of the harness against each other: the CPU one whole run
 * takes (`animal-store-contract --seed 1 --reporter json`, process start
 * included), each run against a fresh mock of this build, alternated
 * A B, B A, A B … so the machine's drift hits both alike. For what one
 * change to the harness costs:
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
 *   npm run build && node dist/bench/compare-harness-builds.js /tmp/before/dist/src/contract-tests/bin.js dist/src/contract-tests/bin.js
 *
 * COMPARE_ROUNDS (default 5) sets the rounds, a pair each. Each round's B/A
 * ratio is printed, then their median and range, and each side's median CPU
 * a run and per request (the requests a run sends, from its JSON report),
 * and its wall time from spawn to exit, which the 3 s target of a default
 * run is about. COMPARE_ARGS_A and COMPARE_ARGS_B add flags to one side
 * (space-separated): the same build against itself with `--settle 3` on B
 * gives what the pause costs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY, HOST, MOCK_BIN } from './config.js';
import { spawnNode, stopChild } from './children.js';
import { freePort } from './free-port.js';
import { median } from './pairs.js';
import { waitReady } from './wait-ready.js';
import type { SuiteReport } from '../src/verdict/report.js';

const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 5);
// Printed by the harness's process as it exits: its own CPU, not the mock's.
const CPU_AT_EXIT = `data:text/javascript,process.on('exit',()=>{const c=process.cpuUsage();process.stderr.write('\\nCPU_US '+(c.user+c.system)+'\\n')})`;

interface Run {
  cpuMs: number;
  /** From spawning the harness to its exit. */
  wallMs: number;
  requests: number;
}

const extraArgs = (side: 'A' | 'B'): string[] => (process.env[`COMPARE_ARGS_${side}`] ?? '').split(' ').filter(Boolean);

async function runOnce(bin: string, label: string, extra: string[] = []): Promise<Run> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const mock = spawnNode('mock', [MOCK_BIN, '--port', String(port), '--quiet']);
  const report = join(tmpdir(), `harness-build-${process.pid}.json`);
  try {
    await waitReady(origin, mock);
    const started = performance.now();
    const harness = spawnNode(label, ['--import', CPU_AT_EXIT, bin, '--base-url', `${origin}/v1`, '--api-key', API_KEY, '--seed', '1', '--reporter', 'json', '--output', report, ...extra]);
    const code = await new Promise<number | null>((resolve) => harness.process.once('exit', resolve));
    const wallMs = performance.now() - started;
    const cpu = /CPU_US (\d+)/.exec(harness.output())?.[1];
    if (code !== 0 || cpu === undefined) throw new Error(`${label} exited ${code}: ${harness.output()}`);
    const requests = (JSON.parse(readFileSync(report, 'utf8')) as SuiteReport).growth?.requests ?? 0;
    return { cpuMs: Number(cpu) / 1000, wallMs, requests };
  } finally {
    rmSync(report, { force: true });
    await stopChild(mock);
  }
}

const [binA, binB] = process.argv.slice(2);
if (!binA || !binB) {
  console.error('usage: node dist/bench/compare-harness-builds.js A/dist/src/contract-tests/bin.js B/dist/src/contract-tests/bin.js');
  process.exit(2);
}
const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
const ratios: number[] = [];
const wallRatios: number[] = [];
await runOnce(binA, 'warm-up');
for (let round = 0; round < ROUNDS; round++) {
  const order: Array<'A' | 'B'> = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  const got: Partial<Record<'A' | 'B', Run>> = {};
  for (const side of order) got[side] = await runOnce(side === 'A' ? binA : binB, side, extraArgs(side));
  const [a, b] = [got.A as Run, got.B as Run];
  runs.A.push(a);
  runs.B.push(b);
  ratios.push(b.cpuMs / a.cpuMs);
  wallRatios.push(b.wallMs / a.wallMs);
  console.log(`round ${round + 1} (${order.join(' ')}): A ${a.cpuMs.toFixed(0)} ms, B ${b.cpuMs.toFixed(0)} ms of CPU, B/A ${(b.cpuMs / a.cpuMs).toFixed(2)}; wall A ${a.wallMs.toFixed(0)} ms, B ${b.wallMs.toFixed(0)} ms, B/A ${(b.wallMs / a.wallMs).toFixed(2)}`);
}
const side = (name: 'A' | 'B') => {
  const cpu = median(runs[name].map((r) => r.cpuMs)) as number;
  const requests = median(runs[name].map((r) => r.requests)) as number;
  const wall = median(runs[name].map((r) => r.wallMs)) as number;
  const [low, high] = [Math.min(...runs[name].map((r) => r.wallMs)), Math.max(...runs[name].map((r) => r.wallMs))];
  return `${name}: ${cpu.toFixed(0)} ms of CPU a run, ${requests} requests, ${((cpu * 1000) / requests).toFixed(0)} µs a request; wall ${wall.toFixed(0)} ms (${low.toFixed(0)}–${high.toFixed(0)})`;
};
console.log(side('A'));
console.log(side('B'));
console.log(`B/A CPU a run: median ${(median(ratios) as number).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), ${ROUNDS} rounds`);
console.log(`B/A wall a run: median ${(median(wallRatios) as number).toFixed(2)} (${Math.min(...wallRatios).toFixed(2)}–${Math.max(...wallRatios).toFixed(2)}), ${ROUNDS} rounds`);
