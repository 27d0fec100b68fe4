/**
 * Proxy mode against the target called directly, in one run: the target is
 * bench/baseline-server.ts (bare node:http serving the mock's catalogue,
 * so what is measured is the proxy, not the target); the mock runs
 * `--proxy` in front of it; and bench/bare-proxy-server.ts, a proxy that
 * only pipes, shows the floor any node proxy has on the same machine.
 * Each round runs the three in turn, the order rotating from round to
 * round, and every ratio is taken within its round, so the load of a
 * shared machine hits all of them alike.
 *
 *   npm run build && node dist/bench/proxy.js ['/v1/pets?limit=20']
 *
 * Then each side gets 500 requests one at a time, round by round: the time
 * a proxy adds when nothing queues, which the loaded runs cannot show.
 *
 * PROXY_ROUNDS (default 5) and PROXY_SECONDS (default 6) set the rounds
 * and the length of each run. PROXY_OTHER_BIN adds a fourth side, another
 * build of the mock (`/tmp/before/dist/src/mock/bin.js`) in proxy mode, so
 * two builds are compared within each round.
 * PROXY_PRISM=1 adds Prism's validating proxy (`prism proxy --errors`, from
 * @stoplight/prism-cli, a development dependency) in front of the same
 * target: the peer the mock's proxy mode is measured against;
 * PROXY_PRISM=FILE runs that prism-cli instead (another version installed
 * in a temporary folder: `…/node_modules/@stoplight/prism-cli/dist/index.js`).
 * Prism serves the document's paths at its root, so its requests leave out
 * `/v1`.
 * PROXY_CPU_PROF=DIR starts the mock with `node --cpu-prof`, writing its
 * profile into DIR when it stops (read it with profile-top.js).
 */
import autocannon from 'autocannon';
import { Agent, get } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { API_KEY, BARE_PROXY_BIN, BASELINE_BIN, CONNECTIONS, FIXTURE, HOST, MOCK_BIN, ROOT } from './config.js';
import { killChildrenOnExit, spawnNode, stopChild, type Child } from './children.js';
import { freePort } from './free-port.js';
import { median } from './pairs.js';
import { readCpuSeconds } from './proc-stats.js';
import { waitReady } from './wait-ready.js';

const ROUNDS = Number(process.env.PROXY_ROUNDS ?? 5);
const SECONDS = Number(process.env.PROXY_SECONDS ?? 6);
const PROFILE_DIR = process.env.PROXY_CPU_PROF;
const OTHER = process.env.PROXY_OTHER_BIN;
const PRISM = process.env.PROXY_PRISM !== undefined && process.env.PROXY_PRISM !== '' && process.env.PROXY_PRISM !== '0';
const SEQUENTIAL_REQUESTS = 500;

type SideName = 'direct' | 'bare proxy' | 'mock proxy' | 'other build' | 'prism proxy';

interface Side {
  name: SideName;
  child: Child;
  origin: string;
  /** Where this side serves the API: `/v1`, or `` for Prism, which serves the document's paths at its root. */
  base: string;
}

/** The request path on this side: the API's path (`/v1/pets?limit=20`) under its base. */
const on = (side: Side, path: string): string => side.origin + side.base + path.replace(/^\/v1/, '');

interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs per request of the process the client called (the target itself, when direct). */
  cpuUs: number;
  /** CPU µs per request of the target. */
  targetCpuUs: number;
}

async function start(name: SideName, args: (port: number) => string[], base = '/v1'): Promise<Side> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const child = spawnNode(name, args(port));
  await waitReady(origin, child, base);
  return { name, child, origin, base };
}

async function load(side: Side, target: Side, path: string, seconds: number): Promise<Run> {
  const cpu = (child: Child): number => readCpuSeconds(child.pid) ?? 0;
  const [before, targetBefore] = [cpu(side.child), cpu(target.child)];
  const result = await autocannon({ url: on(side, path), connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${API_KEY}` } });
  const total = result.requests.total;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${side.name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: ((cpu(side.child) - before) * 1e6) / total,
    targetCpuUs: ((cpu(target.child) - targetBefore) * 1e6) / total,
  };
}

/** One request at a time over one kept-alive connection: what the proxy adds to a request's time when nothing queues (ms, to the µs). */
async function oneByOne(side: Side, path: string): Promise<{ p50: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
      const start = performance.now();
      await new Promise<void>((resolve, reject) => {
        get(on(side, path), { agent, headers: { authorization: `Bearer ${API_KEY}` } }, (answer) => {
          answer.resume();
          answer.on('end', resolve);
          answer.on('error', reject);
        }).on('error', reject);
      });
      times.push(performance.now() - start);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  const at = (share: number): number => times[Math.min(times.length - 1, Math.floor(share * times.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

const spread = (values: number[], digits: number): string =>
  `${values.map((v) => v.toFixed(digits)).join(' ')}; median ${median(values)?.toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

function report(path: string, rounds: Array<Record<SideName, Run>>, names: readonly SideName[]): void {
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  const of = (name: SideName, value: (run: Run) => number): number[] => rounds.map((round) => value(round[name]));
  out(`${path}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per side${OTHER === undefined ? '' : `; other build: ${OTHER}`}`);
  for (const name of names) {
    out(`${name}: req/s ${spread(of(name, (r) => r.rps), 0)}`);
    out(`${name}: CPU µs/req of the process called ${spread(of(name, (r) => r.cpuUs), 0)}; of the target ${spread(of(name, (r) => r.targetCpuUs), 0)}`);
  }
  for (const name of names.filter((n) => n !== 'direct')) {
    out(`${name} over direct, throughput: ${spread(rounds.map((r) => r[name].rps / r.direct.rps), 2)}`);
    out(`${name} over direct, p50 added ms: ${spread(rounds.map((r) => r[name].p50 - r.direct.p50), 1)}; p99 added ms: ${spread(rounds.map((r) => r[name].p99 - r.direct.p99), 1)}`);
  }
  out(`mock proxy over bare proxy, throughput: ${spread(rounds.map((r) => r['mock proxy'].rps / r['bare proxy'].rps), 2)}`);
  out(`mock proxy over bare proxy, CPU per request: ${spread(rounds.map((r) => r['mock proxy'].cpuUs / r['bare proxy'].cpuUs), 2)}`);
  if (PRISM) {
    out(`mock proxy over prism proxy, throughput: ${spread(rounds.map((r) => r['mock proxy'].rps / r['prism proxy'].rps), 2)}`);
    out(`mock proxy over prism proxy, CPU per request: ${spread(rounds.map((r) => r['mock proxy'].cpuUs / r['prism proxy'].cpuUs), 2)}`);
  }
  if (OTHER === undefined) return;
  out(`mock proxy over other build, throughput: ${spread(rounds.map((r) => r['mock proxy'].rps / r['other build'].rps), 2)}`);
  out(`mock proxy over other build, CPU per request: ${spread(rounds.map((r) => r['mock proxy'].cpuUs / r['other build'].cpuUs), 2)}`);
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? '/v1/pets?limit=20';
  killChildrenOnExit();
  const target = await start('direct', (port) => [BASELINE_BIN, '--port', String(port), '--fixtures', FIXTURE]);
  const profile = PROFILE_DIR === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR];
  const sides = [
    target,
    await start('bare proxy', (port) => [BARE_PROXY_BIN, '--port', String(port), '--target', target.origin]),
    await start('mock proxy', (port) => [...profile, MOCK_BIN, '--port', String(port), '--quiet', '--proxy', `${target.origin}/v1`]),
  ];
  if (PRISM) {
    const given = process.env.PROXY_PRISM as string;
    const prism = given === '1' ? createRequire(join(ROOT, 'package.json')).resolve('@stoplight/prism-cli/dist/index.js') : given;
    const document = join(ROOT, 'openapi', 'animal-store.yaml');
    sides.push(await start('prism proxy', (port) => [prism, 'proxy', document, `${target.origin}/v1`, '--errors', '--host', HOST, '--port', String(port)], ''));
  }
  if (OTHER !== undefined) sides.push(await start('other build', (port) => [OTHER, '--port', String(port), '--quiet', '--proxy', `${target.origin}/v1`]));
  try {
    for (const side of sides) await load(side, target, path, 2);
    const rounds: Array<Record<SideName, Run>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      // The order rotates: the last run of a round tends to measure a little slower, and each side takes that place in turn.
      const runs: Partial<Record<SideName, Run>> = {};
      for (let i = 0; i < sides.length; i++) {
        const side = sides[(round + i) % sides.length] as Side;
        runs[side.name] = await load(side, target, path, SECONDS);
      }
      rounds.push(runs as Record<SideName, Run>);
    }
    report(path, rounds, sides.map((side) => side.name));
    const alone: Array<Partial<Record<SideName, { p50: number; p99: number }>>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const runs: Partial<Record<SideName, { p50: number; p99: number }>> = {};
      for (let i = 0; i < sides.length; i++) {
        const side = sides[(round + i) % sides.length] as Side;
        runs[side.name] = await oneByOne(side, path);
      }
      alone.push(runs);
    }
    for (const side of sides.filter((s) => s.name !== 'direct')) {
      const added = (pick: 'p50' | 'p99'): number[] => alone.map((runs) => (runs[side.name]?.[pick] ?? NaN) - (runs.direct?.[pick] ?? NaN));
      process.stdout.write(`${side.name}, ${SEQUENTIAL_REQUESTS} requests one at a time: p50 added ms ${spread(added('p50'), 2)}; p99 added ms ${spread(added('p99'), 2)}\n`);
    }
  } finally {
    for (const side of sides.reverse()) await stopChild(side.child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
