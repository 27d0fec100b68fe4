/**
 * `npm run bench:catalogue`: what the mock's cost per request does as its
 * catalogue grows. For each size (BENCH_SIZES, default 30,100000,1000000) a
 * fixture is written with one rare status (`sold`, one animal in 10,000),
 * the mock is started on it, and each operation is driven for
 * BENCH_DURATION seconds (default 5) after a 1 s warm-up: listPets without
 * and with the rare status, getPet across the whole catalogue, createPet,
 * and opening a session (each request names a session not open yet). It
 * reports req/s, CPU µs per request, start-up time and memory per animal,
 * and whether the cost per request stays within 20 % of the smallest
 * catalogue's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY, CONNECTIONS, RESULTS_DIR } from './config.js';
import { killChildrenOnExit, stopAllChildren } from './children.js';
import { formatTable } from './format-table.js';
import { runLoad } from './load.js';
import { readMemoryMiB } from './proc-stats.js';
import { progress } from './progress.js';
import type { Scenario } from './scenarios.js';
import { startServer, stopServer } from './servers.js';

const sizes = (process.env.BENCH_SIZES ?? '30,100000,1000000').split(',').map(Number);
const durationS = Number(process.env.BENCH_DURATION ?? 5);
const AUTH = { authorization: `Bearer ${API_KEY}` };
const RARE_EVERY = 10_000;

/** A catalogue of `size` animals: `sold` one in 10,000 (at least one), the rest available or pending, some without status. */
function writeFixture(size: number): string {
  const pets = Array.from({ length: size }, (_, i) => {
    const id = i + 1;
    const status = id % RARE_EVERY === 0 || id === size ? 'sold' : id % 7 === 0 ? undefined : id % 2 ? 'available' : 'pending';
    return { id, name: `Pet ${id}`, categoryId: (id % 6) + 1, ...(status ? { status } : {}) };
  });
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `catalogue-${size}.json`);
  writeFileSync(file, JSON.stringify(pets));
  return file;
}

const accepts = () => true;
const get = (name: string, paths: string[], headers: (i: number) => Record<string, string> = () => AUTH): Scenario =>
  ({ name, label: name, requests: paths.map((path, i) => ({ method: 'GET', path, headers: headers(i) })), expectedStatus: 200, accepts }) as unknown as Scenario;

function scenarios(size: number): Scenario[] {
  const spread = Array.from({ length: 50 }, (_, i) => Math.max(1, Math.round(((i + 1) * size) / 50)));
  return [
    get('listPets', ['/v1/pets?limit=20']),
    get('listPets, rare status', ['/v1/pets?status=sold&limit=20']),
    get('getPet', spread.map((id) => `/v1/pets/${id}`)),
    { ...get('createPet', ['/v1/pets']), requests: [{ method: 'POST', path: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }], expectedStatus: 201 },
    // 5,000 session ids in turn, past --max-sessions (100): each request opens a session (and ends the least recent).
    get('opening a session', Array.from({ length: 5000 }, () => '/v1/pets?limit=1'), (i) => ({ ...AUTH, 'x-mock-session': `bench-${i}` })),
  ];
}

interface Row {
  size: number;
  startupMs: number;
  rssMiB: number | undefined;
  operation: string;
  rps: number;
  cpuUs: number | undefined;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const size of sizes) {
    progress(`catalogue of ${size.toLocaleString('en-US')} animals: writing the fixture, starting the mock`);
    const server = await startServer('mock', [], ['--fixtures', writeFixture(size)]);
    const rssMiB = readMemoryMiB(server.child.pid, 'VmRSS');
    try {
      for (const scenario of scenarios(size)) {
        await runLoad(server, scenario, 1, CONNECTIONS);
        const measured = await runLoad(server, scenario, durationS, CONNECTIONS);
        if (measured.non2xx + measured.errors > 0) throw new Error(`${scenario.name} at ${size}: ${measured.non2xx} non-2xx, ${measured.errors} errors`);
        rows.push({ size, startupMs: server.startupMs, rssMiB, operation: scenario.name, rps: measured.rpsMean, cpuUs: measured.serverCpuUsPerResponse });
        progress(`  ${scenario.name}: ${Math.round(measured.rpsMean)} req/s, ${measured.serverCpuUsPerResponse?.toFixed(0)} µs CPU a request`);
      }
    } finally {
      await stopServer(server);
    }
  }
  process.stdout.write(`\n${report(rows)}\n`);
  writeFileSync(join(RESULTS_DIR, 'catalogue-size.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, durationS, connections: CONNECTIONS, rows }, null, 2)}\n`);
}

/** One row per size and operation, the CPU per request against the smallest catalogue's, and memory per animal. */
function report(rows: readonly Row[]): string {
  const smallest = Math.min(...rows.map((r) => r.size));
  const base = (operation: string) => rows.find((r) => r.size === smallest && r.operation === operation)?.cpuUs;
  const rssOf = (size: number) => rows.find((r) => r.size === size)?.rssMiB;
  const table = formatTable(
    ['animals', 'start-up ms', 'RSS MiB', 'bytes/animal', 'operation', 'req/s', 'CPU µs/req', 'vs smallest'],
    rows.map((r) => {
      const perPet = r.size === smallest || rssOf(r.size) === undefined || rssOf(smallest) === undefined ? '' : (((rssOf(r.size) as number) - (rssOf(smallest) as number)) * 2 ** 20 / (r.size - smallest)).toFixed(0);
      const b = base(r.operation);
      return [r.size.toLocaleString('en-US'), r.startupMs.toFixed(0), r.rssMiB?.toFixed(1) ?? 'n/a', perPet, r.operation, Math.round(r.rps).toLocaleString('en-US'), r.cpuUs?.toFixed(0) ?? 'n/a', b && r.cpuUs ? `${((r.cpuUs / b - 1) * 100).toFixed(0)}%` : ''];
    }),
    ['r', 'r', 'r', 'r', 'l', 'r', 'r', 'r'],
  );
  return `Cost per request by catalogue size (${durationS} s per operation, ${CONNECTIONS} connections; flat means within 20 % of the smallest)\n${table}`;
}

killChildrenOnExit();
try {
  await main();
} catch (error) {
  process.stderr.write(`bench:catalogue failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await stopAllChildren();
}
