/**
 * Two builds of the mock started alternately (A B, then B A, …) on a large
 * scenario catalogue: how long each takes to answer, how much it holds once
 * up, and how much once a first named session has opened (a session starts
 * from the start catalogue: a build that indexes it again shows here).
 *
 *   node dist/bench/startup-builds.js /tmp/before/dist/src/mock/bin.js dist/src/mock/bin.js
 *
 * STARTUP_PETS (default 200,000) animals in a fixture the scenario names;
 * STARTUP_ROUNDS (default 5) pairs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { spawnNode, stopChild } from './children.js';
import { API_KEY, HOST } from './config.js';
import { freePort } from './free-port.js';
import { httpRequest } from './http-request.js';
import { median } from './pairs.js';
import { readMemoryMiB } from './proc-stats.js';
import { waitReady } from './wait-ready.js';

interface Start {
  readyMs: number;
  rssMiB: number;
  sessionRssMiB: number;
}

/** A scenarios folder whose one scenario, `big`, starts from a fixture of `count` animals. */
function bigScenario(dir: string, count: number): void {
  const pets = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 6) + 1, ...(i % 7 ? { status: i % 2 ? 'available' : 'pending' } : {}) }));
  // Beside the scenarios folder, not in it: every .json and .yaml there is read as a scenario.
  const fixture = join(dir, '..', `${basename(dir)}-pets.json`);
  writeFileSync(fixture, JSON.stringify(pets));
  writeFileSync(join(dir, 'big.yaml'), `name: big\ndescription: ${count} animals from a fixture\ncatalogue:\n  fixture: ${fixture}\nstubs: []\n`);
}

/** RSS after a moment's rest, so a collection in flight settles. */
async function settledRss(pid: number): Promise<number> {
  await delay(500);
  return readMemoryMiB(pid, 'VmRSS') ?? Number.NaN;
}

async function startOnce(label: string, bin: string, dir: string): Promise<Start> {
  const port = await freePort();
  const origin = `http://${HOST}:${port}`;
  const started = performance.now();
  const child = spawnNode(label, [bin, '--port', String(port), '--quiet', '--no-watch', '--scenarios', dir, '--scenario', 'big']);
  try {
    await waitReady(origin, child);
    const readyMs = performance.now() - started;
    const rssMiB = await settledRss(child.pid);
    const session = await httpRequest(`${origin}/v1/pets?limit=20`, { headers: { authorization: `Bearer ${API_KEY}`, 'x-mock-session': 'first' } });
    if (session.status !== 200) throw new Error(`${label}: a first session's listPets answered ${session.status}`);
    return { readyMs, rssMiB, sessionRssMiB: await settledRss(child.pid) };
  } finally {
    await stopChild(child);
  }
}

async function main(): Promise<void> {
  const [binA, binB] = process.argv.slice(2);
  if (binA === undefined || binB === undefined) throw new Error('usage: node dist/bench/startup-builds.js A_BIN B_BIN');
  const count = Number(process.env.STARTUP_PETS ?? 200_000);
  const rounds = Number(process.env.STARTUP_ROUNDS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'startup-builds-'));
  try {
    bigScenario(dir, count);
    const runs: Record<'A' | 'B', Start[]> = { A: [], B: [] };
    for (let round = 0; round < rounds; round++) {
      // A B, then B A: whichever starts second in a round must not always be the same build.
      const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      for (const label of order) runs[label].push(await startOnce(label, label === 'A' ? binA : binB, dir));
    }
    const show = (values: number[]): string => `${values.map((v) => v.toFixed(0)).join(' ')}; median ${median(values)?.toFixed(0)}`;
    for (const label of ['A', 'B'] as const) {
      const of = (key: keyof Start) => runs[label].map((run) => run[key]);
      process.stdout.write(`${label} (${count.toLocaleString('en-US')} animals): ready ms ${show(of('readyMs'))}\n`);
      process.stdout.write(`${label}: RSS MiB once up ${show(of('rssMiB'))}; after a first session ${show(of('sessionRssMiB'))}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(dir, '..', `${basename(dir)}-pets.json`), { force: true });
  }
}

await main();
