/**
 * The engine in-process (createMock().fetch) against the node server over
 * loopback, and against bare Hono's `app.fetch` doing the same work
 * (same-work.ts) in-process: throughput and CPU per request, measured in
 * interleaved rounds (the order flips each round), ratios taken within a
 * round only, then their median and range.
 *
 *   npm run build && node dist/bench/in-process.js            # getPet and listPets
 *   IN_PROCESS_ROUNDS=7 IN_PROCESS_SECONDS=5 node dist/bench/in-process.js
 *
 * In-process, 50 loops each await one answer at a time (autocannon's 50
 * connections' counterpart), reading every body; the CPU is this process's,
 * the caller's share included, as a test's would be. The server is measured
 * twice: by autocannon (what it can serve) and by the same 50 loops calling
 * the global `fetch` over loopback (what a test calling it pays).
 */
import autocannon from 'autocannon';
import { Hono } from 'hono';
import { createMock, type MockEngine } from '../src/entries/fetch.js';
import { killChildrenOnExit, spawnNode, stopChild } from './children.js';
import { API_KEY, CONNECTIONS, FIXTURE, HOST, MOCK_BIN } from './config.js';
import { freePort } from './free-port.js';
import { median } from './pairs.js';
import { readCpuSeconds } from './proc-stats.js';
import { sameWork } from './same-work.js';
import { waitReady } from './wait-ready.js';

const ROUNDS = Number(process.env.IN_PROCESS_ROUNDS ?? 5);
const SECONDS = Number(process.env.IN_PROCESS_SECONDS ?? 4);
const PATHS = ['/v1/pets/7', '/v1/pets?limit=20'];
const headers = { authorization: `Bearer ${API_KEY}` };

interface Measure {
  rps: number;
  cpuUs: number;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/** 50 loops calling `fetch` for `seconds`, each body read: answers a second and this process's CPU µs per answer. */
async function inProcess(fetch: Fetch, path: string, seconds: number, origin = 'http://localhost'): Promise<Measure> {
  const url = `${origin}${path}`;
  const until = performance.now() + seconds * 1000;
  let answers = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const response = await fetch(new Request(url, { headers }));
        await response.text();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        answers += 1;
        // The engine answers in microtasks alone: let timers and sockets' events run now and then, as a test's
        // event loop does (else the fetch client's pool misses that the server closed its idle connections).
        if (answers % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: answers / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / answers };
}

async function overLoopback(origin: string, pid: number, path: string, seconds: number): Promise<Measure> {
  const before = readCpuSeconds(pid) ?? 0;
  const result = await autocannon({ url: origin + path, connections: CONNECTIONS, duration: seconds, headers });
  if (result.non2xx > 0) throw new Error(`${path} over loopback: ${result.non2xx} answers were not 2xx`);
  return { rps: result.requests.average, cpuUs: (((readCpuSeconds(pid) ?? 0) - before) * 1e6) / result.requests.total };
}

/**
 * Bare Hono doing the same work: the key, the lookup or the page, JSON per
 * answer. With `fields`, its answers also carry the header fields the
 * engine's answer to that path carries (CORS, the deprecation signals), so
 * the two send the same answer; without, only `Content-Type`.
 */
function bareHono(fields: Record<string, string> = { 'content-type': 'application/json' }): Fetch {
  const work = sameWork(FIXTURE);
  const send = ({ status, body }: { status: number; body: string }): Response => new Response(body, { status, headers: fields });
  const app = new Hono()
    .get('/v1/pets', (c) => send(work.listPets(c.req.header('authorization'), new URL(c.req.url).search.slice(1))))
    .get('/v1/pets/:petId', (c) => send(work.getPet(c.req.header('authorization'), c.req.param('petId'))));
  return (request) => app.fetch(request);
}

const spread = (values: number[]): string => `${median(values)?.toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

async function main(): Promise<void> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const server = spawnNode('mock', [MOCK_BIN, '--port', String(port), '--quiet']);
  await waitReady(origin, server);
  const engine: MockEngine = await createMock();
  const bare = bareHono();
  const engineFetch: Fetch = (request) => engine.fetch(request);
  for (const path of PATHS) {
    // A warm-up of each, unmeasured.
    await inProcess(engineFetch, path, 1);
    await inProcess(bare, path, 1);
    await overLoopback(origin, server.pid, path, 1);
    await inProcess((request) => fetch(request), path, 1, origin);
    const engineAnswer = await engineFetch(new Request(`http://localhost${path}`, { headers }));
    await engineAnswer.text();
    const sameFields = bareHono(Object.fromEntries(engineAnswer.headers));
    await inProcess(sameFields, path, 1);
    type Kind = 'server' | 'fetched' | 'engine' | 'bare' | 'sameFields';
    const rows: Array<Record<Kind, Measure>> = [];
    const measure = (kind: Kind): Promise<Measure> => {
      if (kind === 'server') return overLoopback(origin, server.pid, path, SECONDS);
      if (kind === 'fetched') return inProcess((request) => fetch(request), path, SECONDS, origin);
      return inProcess(kind === 'engine' ? engineFetch : kind === 'bare' ? bare : sameFields, path, SECONDS);
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      const measured: Partial<Record<Kind, Measure>> = {};
      const order: Kind[] = round % 2 === 0 ? ['server', 'fetched', 'engine', 'bare', 'sameFields'] : ['sameFields', 'bare', 'engine', 'fetched', 'server'];
      for (const kind of order) measured[kind] = await measure(kind);
      rows.push(measured as Record<Kind, Measure>);
    }
    const at = (kind: Kind, field: keyof Measure) => median(rows.map((row) => row[kind][field])) ?? 0;
    process.stdout.write(
      [
        `${path}: ${ROUNDS} rounds of ${SECONDS} s`,
        `  answers/s (median): server over loopback by autocannon ${at('server', 'rps').toFixed(0)}, by fetch ${at('fetched', 'rps').toFixed(0)}; engine in-process ${at('engine', 'rps').toFixed(0)}, bare Hono in-process ${at('bare', 'rps').toFixed(0)}`,
        `  CPU µs per answer (median): server ${at('server', 'cpuUs').toFixed(1)} (its own process), engine ${at('engine', 'cpuUs').toFixed(1)}, bare Hono ${at('bare', 'cpuUs').toFixed(1)}, with the engine's header fields ${at('sameFields', 'cpuUs').toFixed(1)} (this process, caller included)`,
        `  bare Hono with the engine's header fields/server by autocannon, throughput: ${spread(rows.map((row) => row.sameFields.rps / row.server.rps))}`,
        `  engine/server throughput: ${spread(rows.map((row) => row.engine.rps / row.server.rps))} against autocannon's, ${spread(rows.map((row) => row.engine.rps / row.fetched.rps))} against fetch's`,
        `  engine/bare Hono CPU per answer: ${spread(rows.map((row) => row.engine.cpuUs / row.bare.cpuUs))}; with the engine's header fields ${spread(rows.map((row) => row.engine.cpuUs / row.sameFields.cpuUs))}`,
        '',
      ].join('\n'),
    );
  }
  await engine.close();
  await stopChild(server);
}

// A run that fails part-way stops its server too.
killChildrenOnExit();
await main();
