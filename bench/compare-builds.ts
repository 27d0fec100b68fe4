/**
 * Two builds of the mock against each other, CPU per request on one
 * operation: both started once, then measured alternately (A B, B A, A B …,
 * five rounds of 6 s after a warm-up each), so the machine's drift hits both
 * alike. For a question the full benchmark is too coarse for, such as what
 * one change costs:
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
 *   npm run build && node dist/bench/compare-builds.js /tmp/before/dist/src/mock/bin.js dist/src/mock/bin.js '/v1/pets?limit=20'
 *
 * Either side may be bench/bare-hono-server.js (`dist/bench/bare-hono-server.js`),
 * started on the mock's catalogue, to read the mock's CPU per request
 * against bare Hono's. COMPARE_ROUNDS (default 5) and COMPARE_SECONDS
 * (default 6) set the rounds and their length. Each round's B/A ratio is
 * printed, then their median and range: a ratio is only taken within a round.
 *
 * A fourth argument is a JSON body: the path is then POSTed with it
 * (`'/v1/pets' '{"name":"Rex","categoryId":2}'`). Every request adds an
 * animal until the session's catalogue is full (then 507), so a body the
 * mock reads whole and then refuses (a status outside PetStatus: 400)
 * measures reading a body without filling anything.
 */
import autocannon from 'autocannon';
import { basename } from 'node:path';
import { API_KEY, FIXTURE, HOST } from './config.js';
import { spawnNode, stopChild, type Child } from './children.js';
import { freePort } from './free-port.js';
import { median } from './pairs.js';
import { readCpuSeconds } from './proc-stats.js';
import { waitReady } from './wait-ready.js';

const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 5);
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 6);

/** Bare Hono serves the mock's catalogue; the mock its default one (the same file), quietly. */
const serverArgs = (bin: string): string[] => (basename(bin) === 'bare-hono-server.js' ? ['--fixtures', FIXTURE] : ['--quiet']);

async function start(label: string, bin: string): Promise<{ child: Child; origin: string }> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const child = spawnNode(label, [bin, '--port', String(port), ...serverArgs(bin)]);
  await waitReady(origin, child);
  return { child, origin };
}

/** µs of the server's CPU per answer over one run. */
async function cpuPerRequest({ child, origin }: { child: Child; origin: string }, path: string, seconds: number, body?: string): Promise<number> {
  const before = readCpuSeconds(child.pid) ?? 0;
  const headers: Record<string, string> = { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const result = await autocannon({ url: origin + path, connections: 50, duration: seconds, headers, ...(body === undefined ? {} : { method: 'POST' as const, body }) });
  return (((readCpuSeconds(child.pid) ?? 0) - before) * 1e6) / result.requests.total;
}

async function main(): Promise<void> {
  const [binA, binB, path = '/v1/pets?limit=20', body] = process.argv.slice(2);
  if (binA === undefined || binB === undefined) throw new Error('usage: node dist/bench/compare-builds.js A_BIN B_BIN [PATH [JSON_BODY]]');
  const a = await start('A', binA);
  const b = await start('B', binB);
  try {
    await cpuPerRequest(a, path, 2, body);
    await cpuPerRequest(b, path, 2, body);
    const runs: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // A B, then B A: the second run of a round measured slower by 6 to 10 % in A/B runs of one build against
      // another and back, so each build goes second in every other round.
      const first = round % 2 === 0 ? a : b;
      const firstCpu = await cpuPerRequest(first, path, SECONDS, body);
      const secondCpu = await cpuPerRequest(first === a ? b : a, path, SECONDS, body);
      runs.A.push(first === a ? firstCpu : secondCpu);
      runs.B.push(first === a ? secondCpu : firstCpu);
    }
    for (const [label, values] of Object.entries(runs)) {
      process.stdout.write(`${label} CPU µs/req: ${values.map((v) => v.toFixed(1)).join(' ')}; median ${median(values)?.toFixed(1)}\n`);
    }
    const ratios = runs.B.map((b, round) => b / (runs.A[round] as number));
    const text = (values: number[]): string => values.map((v) => v.toFixed(2)).join(' ');
    process.stdout.write(`B/A CPU per request, round by round: ${text(ratios)}; median ${median(ratios)?.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})\n`);
  } finally {
    await stopChild(a.child);
    await stopChild(b.child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
