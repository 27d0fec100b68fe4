/**
 * `npm run bench:soak -- [--minutes N]` (default 10; fractions allowed): the
 * built mock with its default flags (apart from a free port, `--log-format
 * json --quiet`) under a mixed load that includes abuse, for N minutes,
 * sampled every second: RSS from /proc, the heap as the mock reports it over
 * IPC (bench/soak-mock.ts), answers by status, connection errors, whether it
 * lives. Prints a markdown report with four PASS/FAIL lines (no crash, no
 * unexpected 5xx, RSS levelled off, largest RSS under SOAK_RSS_CEILING_MIB,
 * default 1024) and writes bench/results/soak.json. Exits 1 when a check fails.
 *
 * `--proxy`: the same, with the mock measured in proxy mode (`--proxy
 * <target>/v1`) in front of a second, plain mock (bench/soak-target.ts), and
 * slow clients besides (bench/soak-slow-read.ts). A 502 or 504 counts as an
 * unexpected 5xx: the target runs on the same machine for the whole soak,
 * so the proxy failing to reach it or to get its answer in time is a
 * failure, not a bound. Results go to bench/results/soak-proxy.json.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { killChildrenOnExit, spawnNode, stopAllChildren, stopChild, type Child } from './children.js';
import { HOST, RESULTS_DIR } from './config.js';
import { freePort } from './free-port.js';
import { readMemoryMiB } from './proc-stats.js';
import { progress } from './progress.js';
import { renderWarning } from './report.js';
import { machine, writeResults } from './results.js';
import { ABORT_SESSIONS, ABORT_STREAM, abortBodies } from './soak-abort.js';
import { LEVEL_OFF_TOLERANCE, readSoakConfig, SCENARIOS_DIR, SOAK_MOCK_BIN, TIMELINE_ROWS, type SoakConfig } from './soak-config.js';
import { runStream } from './soak-load.js';
import { SLOW_READ_STREAM, slowReads } from './soak-slow-read.js';
import { startTarget, type SoakTarget } from './soak-target.js';
import { describeStreams, renderSoakReport, type SoakResults } from './soak-report.js';
import { startSampler, type HeapReport, type Sampler } from './soak-sampler.js';
import { countUnexpected5xx, Tally, totals } from './soak-tally.js';
import { soakStreams, type Stream } from './soak-traffic.js';
import { levelOff, timeline, verdicts } from './soak-verdict.js';
import { waitReady } from './wait-ready.js';

const MOCK_FLAGS = ['--log-format', 'json', '--quiet'];

interface SoakMock {
  child: Child;
  origin: string;
  command: string;
  lastHeap(): HeapReport | undefined;
}

/** Starts the wrapped mock on a free port; resolves once it answers. */
async function startMock(target: SoakTarget | undefined): Promise<SoakMock> {
  const port = await freePort();
  const args = ['--port', String(port), ...MOCK_FLAGS, ...(target ? ['--proxy', target.url] : [])];
  const child = spawnNode('mock', [SOAK_MOCK_BIN, ...args], { ipc: true });
  let last: HeapReport | undefined;
  child.process.on('message', (message: { memory?: NodeJS.MemoryUsage }) => {
    if (message.memory) last = { memory: message.memory, at: performance.now() };
  });
  const origin = `http://${HOST}:${port}`;
  await waitReady(origin, child);
  const command = `animal-store-mock ${args.join(' ')}` + (target ? ` (the target: ${target.command})` : '');
  return { child, origin, command, lastHeap: () => last };
}

/** Why a child stopped, in words. */
const ending = (code: number | null, signal: NodeJS.Signals | null): string => (signal ? `killed by ${signal}` : `exit code ${code}`);

const shippedScenarios = (): string[] =>
  readdirSync(SCENARIOS_DIR)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => basename(file, '.yaml'))
    .sort();

interface LoadOutcome {
  ranS: number;
  crash: string | undefined;
  sampler: Sampler;
  streams: Stream[];
}

/**
 * Every stream and the aborting clients at once for `durationS`, sampled
 * every second; stops early if the mock dies.
 */
async function driveLoad(mock: SoakMock, target: SoakTarget | undefined, durationS: number, tally: Tally): Promise<LoadOutcome> {
  const started = performance.now();
  const elapsed = (): number => (performance.now() - started) / 1000;
  let crash: string | undefined;
  let loading = true;
  const dies = (child: Child, what: string): Promise<void> =>
    new Promise<void>((resolve) =>
      child.process.once('exit', (code, signal) => {
        if (loading) crash ??= `${what} died after ${elapsed().toFixed(0)} s: ${ending(code, signal)}`;
        resolve();
      }),
    );
  const died = Promise.race([dies(mock.child, 'the mock'), ...(target ? [dies(target.child, 'the target')] : [])]);
  const streams = soakStreams(shippedScenarios());
  const slow = target ? SLOW_READ_STREAM.connections : 0;
  progress(`Soak: ${(durationS / 60).toFixed(2)} min against ${mock.command} (pid ${mock.child.pid}), ${streams.length} autocannon streams, ${ABORT_STREAM.connections} aborting and ${slow} slow clients`);
  const sampler = startSampler(mock.child, mock.lastHeap, tally, elapsed, Math.max(1, Math.round(durationS / TIMELINE_ROWS)));
  const running = streams.map((stream) => runStream(mock.origin, stream, durationS, tally));
  const loadOn = (): boolean => crash === undefined && elapsed() < durationS;
  const aborting = Array.from({ length: ABORT_STREAM.connections }, () => abortBodies(mock.origin, ABORT_SESSIONS, tally, loadOn));
  const reading = Array.from({ length: slow }, () => slowReads(mock.origin, tally, loadOn));

  await Promise.race([Promise.all(running.map((r) => r.done)), died]);
  const ranS = elapsed();
  for (const r of running) r.stop();
  await Promise.all([...aborting, ...reading, ...running.map((r) => r.done)]);
  sampler.stop();
  loading = false;
  return { ranS, crash, sampler, streams };
}

async function soak(config: SoakConfig): Promise<SoakResults> {
  const target = config.proxy ? await startTarget() : undefined;
  const mock = await startMock(target);
  const idleRssMiB = readMemoryMiB(mock.child.pid, 'VmRSS');
  const tally = new Tally();
  const { ranS, crash, sampler, streams } = await driveLoad(mock, target, config.minutes * 60, tally);
  let stopped: string | undefined;
  if (!mock.child.exited()) {
    mock.child.process.once('exit', (code, signal) => (stopped = ending(code, signal)));
    await stopChild(mock.child);
  }
  const { samples } = sampler;
  const rss = samples.flatMap((s) => (s.rssMiB === undefined ? [] : [s.rssMiB]));
  const largestRssMiB = Math.max(sampler.peakRssMiB() ?? 0, ...rss) || undefined;
  const level = levelOff(rss, LEVEL_OFF_TOLERANCE);
  const unexpected5xx = countUnexpected5xx(totals(tally.answers));
  return {
    date: new Date().toISOString(),
    ...machine(),
    minutes: config.minutes,
    ranS,
    mockCommand: mock.command,
    rssCeilingMiB: config.rssCeilingMiB,
    idleRssMiB,
    largestRssMiB,
    streams: [...describeStreams(streams), ABORT_STREAM, ...(target ? [SLOW_READ_STREAM] : [])],
    answers: tally.answers,
    errors: tally.errors,
    timeline: timeline(samples, TIMELINE_ROWS),
    verdicts: verdicts({ crash, unexpected5xx, level, largestRssMiB, rssCeilingMiB: config.rssCeilingMiB, tolerance: LEVEL_OFF_TOLERANCE }),
    crashOutput: crash === undefined ? undefined : mock.child.output() + (target ? `\n--- the target:\n${target.child.output()}` : ''),
    stopped,
    samples,
  };
}

async function main(): Promise<number> {
  const config = readSoakConfig(process.argv.slice(2), process.env);
  if (!existsSync(SOAK_MOCK_BIN)) throw new Error(`${SOAK_MOCK_BIN} is missing: run npm run build first`);
  const results = await soak(config);
  process.stdout.write(renderSoakReport(results));
  process.stdout.write(`\nResults written to ${writeResults(RESULTS_DIR, config.proxy ? 'soak-proxy.json' : 'soak.json', results)}\n`);
  return results.verdicts.every((v) => v.pass) ? 0 : 1;
}

killChildrenOnExit();
try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(renderWarning([`bench:soak failed: ${(error as Error).message}`]));
  process.exitCode = 1;
} finally {
  await stopAllChildren();
}
