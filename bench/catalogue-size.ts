/**
 * `npm run bench:catalogue`: what the mock's cost per request does as its
 * catalogue grows. For each size (BENCH_SIZES, default 30,100000,1000000) a
 * fixture is written with one rare status (`sold`: 20 animals spread over
 * the catalogue, so its page is full at every size, and at a million one
 * animal in 50,000), a mock is started on it, and each operation is driven
 * for BENCH_DURATION seconds (default 5) after a 1 s warm-up: listPets
 * without and with the rare status, getPet across the whole catalogue,
 * createPet, and opening a session (each request names a session not open
 * yet). The sizes are interleaved in BENCH_ROUNDS rounds (default 3), a
 * fresh mock each time, since the machine is shared; the report gives the
 * median CPU µs per request with its range, req/s, start-up time and
 * memory per animal, and whether the cost stays within 20 % of the
 * smallest catalogue's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY, CONNECTIONS, RESULTS_DIR } from './config.js';
import { killChildrenOnExit, stopAllChildren } from './children.js';
import { formatTable } from './format-table.js';
import { runLoad } from './load.js';
import { readMemoryMiB } from './proc-stats.js';
import { progress } from './progress.js';
import { median } from './stats.js';
import type { Scenario } from './scenarios.js';
import { startServer, stopServer } from './servers.js';

const sizes = (process.env.BENCH_SIZES ?? '30,100000,1000000').split(',').map(Number);
const durationS = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const AUTH = { authorization: `Bearer ${API_KEY}` };
/** As many as a listPets page holds, so the rare status's page is as large as the unfiltered one at every size. */
const RARE_COUNT = 20;
const SETTLE_S = 3;

/** A catalogue of `size` animals: `sold` for 20 of them spread evenly, the rest available or pending, some without status. */
function writeFixture(size: number): string {
  const rareEvery = Math.max(1, Math.floor(size / RARE_COUNT));
  const pets = Array.from({ length: size }, (_, i) => {
    const id = i + 1;
    const status = id % rareEvery === 0 && id / rareEvery <= RARE_COUNT ? 'sold' : id % 7 === 0 ? undefined : id % 2 ? 'available' : 'pending';
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
  round: number;
  startupMs: number;
  rssMiB: number | undefined;
  operation: string;
  rps: number;
  cpuUs: number | undefined;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const fixtures = new Map(sizes.map((size) => [size, writeFixture(size)]));
  for (let round = 1; round <= rounds; round++) {
    for (const size of sizes) rows.push(...(await measureSize(size, fixtures.get(size) as string, round)));
  }
  process.stdout.write(`\n${report(rows)}\n`);
  writeFileSync(join(RESULTS_DIR, 'catalogue-size.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, durationS, rounds, connections: CONNECTIONS, rows }, null, 2)}\n`);
}

/** One round at one size: a fresh mock on the fixture, each operation warmed up then measured. */
async function measureSize(size: number, fixture: string, round: number): Promise<Row[]> {
  progress(`round ${round}/${rounds}, catalogue of ${size.toLocaleString('en-US')} animals: starting the mock`);
  const server = await startServer('mock', { mockArgs: ['--fixtures', fixture] });
  const rssMiB = readMemoryMiB(server.child.pid, 'VmRSS');
  const rows: Row[] = [];
  try {
    // Unmeasured: the garbage of reading a large fixture (the parsed file, a
    // million objects) is collected under the first load, a one-off cost of
    // start-up that would otherwise land on whichever operation came first.
    await runLoad(server, scenarios(size)[0] as Scenario, SETTLE_S, CONNECTIONS);
    for (const scenario of scenarios(size)) {
      await runLoad(server, scenario, 1, CONNECTIONS);
      const measured = await runLoad(server, scenario, durationS, CONNECTIONS);
      if (measured.non2xx + measured.errors > 0) throw new Error(`${scenario.name} at ${size}: ${measured.non2xx} non-2xx, ${measured.errors} errors`);
      rows.push({ size, round, startupMs: server.startupMs, rssMiB, operation: scenario.name, rps: measured.rpsMean, cpuUs: measured.serverCpuUsPerResponse });
      progress(`  ${scenario.name}: ${Math.round(measured.rpsMean)} req/s, ${measured.serverCpuUsPerResponse?.toFixed(0)} µs CPU a request`);
    }
  } finally {
    await stopServer(server);
  }
  return rows;
}

/** One row per size and operation: medians over the rounds (CPU with its range), against the smallest catalogue's median. */
function report(rows: readonly Row[]): string {
  const smallest = Math.min(...sizes);
  const cells = (size: number, operation: string) => rows.filter((r) => r.size === size && r.operation === operation);
  const cpu = (size: number, operation: string) => cells(size, operation).flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
  const rss = (size: number) => median(rows.filter((r) => r.size === size).flatMap((r) => (r.rssMiB === undefined ? [] : [r.rssMiB])));
  const table = formatTable(
    ['animals', 'start-up ms', 'RSS MiB', 'bytes/animal', 'operation', 'req/s', 'CPU µs/req (range)', 'vs smallest'],
    sizes.flatMap((size) =>
      scenarios(size).map(({ name }) => {
        const own = cpu(size, name);
        const mine = median(own);
        const base = median(cpu(smallest, name));
        const perPet = size === smallest || Number.isNaN(rss(size) - rss(smallest)) ? '' : (((rss(size) - rss(smallest)) * 2 ** 20) / (size - smallest)).toFixed(0);
        const startup = median(cells(size, name).map((r) => r.startupMs));
        const range = own.length > 1 ? ` (${Math.min(...own).toFixed(0)}–${Math.max(...own).toFixed(0)})` : '';
        const shown = (n: number, digits: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
        return [size.toLocaleString('en-US'), shown(startup, 0), shown(rss(size), 1), perPet, name, Math.round(median(cells(size, name).map((r) => r.rps))).toLocaleString('en-US'), Number.isNaN(mine) ? 'n/a' : `${mine.toFixed(0)}${range}`, base && mine ? `${((mine / base - 1) * 100).toFixed(0)}%` : ''];
      }),
    ),
    ['r', 'r', 'r', 'r', 'l', 'r', 'r', 'r'],
  );
  return `Cost per request by catalogue size (${rounds} rounds of the sizes interleaved, ${durationS} s per operation, ${CONNECTIONS} connections; medians; flat means within 20 % of the smallest)\n${table}`;
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
