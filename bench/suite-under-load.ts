/**
 * The test suite as a contributor's fresh clone runs it, on a busy machine.
 *
 *   npm run bench:suite              (SUITE_RUNS=N, default 3; SUITE_BURNERS=N, default 2)
 *
 * Clones the repository's HEAD into a temporary folder, runs `npm ci`
 * there, then `npm test` (the README's command, with CI=true and
 * MOCK_REQUIRE_SERVERS=1 as .ci/run sets them) SUITE_RUNS times, each with
 * SUITE_BURNERS processes spinning on the CPU beside it for the whole run.
 * Prints, for each run, its wall time, whether it passed and its failed
 * tests; then the ten slowest test files of the last run, as a table for
 * BENCHMARKS.md. The clone is removed at the end; the runs' logs are kept
 * under bench/results/suite-under-load/.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/shared/package-root.js';
import { markdownTable } from './markdown-table.js';

interface FileResult {
  name: string;
  ms: number;
}

interface RunResult {
  ms: number;
  code: number | null;
  failed: string[];
  files: FileResult[];
}

const root = packageRoot();
const runs = Number(process.env.SUITE_RUNS ?? 3);
const burners = Number(process.env.SUITE_BURNERS ?? 2);
const out = join(root, 'bench', 'results', 'suite-under-load');

/** A process that keeps one core busy until killed. */
const burn = (): ChildProcess => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

function run(command: string, args: string[], cwd: string, log: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, CI: 'true', MOCK_REQUIRE_SERVERS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('close', (code) => {
      writeFileSync(log, text);
      resolve(code);
    });
  });
}

/** vitest's JSON report: each file with its duration, and every test that failed. */
function readReport(file: string): Pick<RunResult, 'failed' | 'files'> {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: Array<{ fullName: string; status: string }> }>;
  };
  const files = report.testResults.map((result) => ({
    name: result.name.replace(/^.*?\/(src|test|scripts)\//, '$1/'),
    ms: result.endTime - result.startTime,
  }));
  const failed = report.testResults.flatMap((result) => result.assertionResults.filter((test) => test.status === 'failed').map((test) => `${result.name.replace(/^.*?\/(src|test|scripts)\//, '$1/')}: ${test.fullName}`));
  return { files, failed };
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  const clone = mkdtempSync(join(tmpdir(), 'animal-store-suite-'));
  try {
    execFileSync('git', ['clone', '--quiet', root, clone]);
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim();
    console.log(`clone of ${head} in ${clone}; npm ci…`);
    if ((await run('npm', ['ci', '--no-audit', '--no-fund'], clone, join(out, 'npm-ci.log'))) !== 0) throw new Error(`npm ci failed: see ${join(out, 'npm-ci.log')}`);
    const results: RunResult[] = [];
    for (let i = 1; i <= runs; i += 1) {
      const spinning = Array.from({ length: burners }, burn);
      const json = join(out, `run-${i}.json`);
      const started = performance.now();
      // The README's command; the arguments after -- reach vitest run, the script's last command.
      const code = await run('npm', ['test', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], clone, join(out, `run-${i}.log`));
      const ms = performance.now() - started;
      for (const burner of spinning) burner.kill('SIGKILL');
      const { failed, files } = readReport(json);
      results.push({ ms, code, failed, files });
      console.log(`run ${i} of ${runs} (${burners} burners): ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${(ms / 60_000).toFixed(1)} min${failed.length ? `\n  ${failed.join('\n  ')}` : ''}`);
    }
    const last = results.at(-1) as RunResult;
    const slowest = [...last.files].sort((a, b) => b.ms - a.ms).slice(0, 10);
    console.log(`\nThe ten slowest files of the last run (${head}, ${burners} burners):\n`);
    console.log(markdownTable(['file', 's'], slowest.map((file) => [file.name, (file.ms / 1000).toFixed(1)]), ['l', 'r']));
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
