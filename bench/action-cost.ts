/**
 * What the GitHub Action (action.yml) spends before the harness starts, as
 * its steps run it, on a cache miss and on a hit:
 *
 *   npm run bench:action                     clones HEAD into a temporary folder
 *   ACTION_COPY=/path npm run bench:action   reuses a copy already built and pruned
 *
 * A miss: `npm ci` (which builds through `prepare`) then `npm prune
 * --omit=dev`, the Action's build step, timed once. A hit: the two steps
 * that read Node's version and make the cache key, run from action.yml
 * itself, then what actions/cache does with the archive it downloads: GNU
 * tar through `zstd -d --long=30` into a fresh folder (the archive is made
 * as actions/cache makes it, `zstdmt --long=30`). GitHub's cache service
 * cannot be reached from here, so the download is not in the figures: the
 * archive's size is printed for it. BENCH_RUNS hits (default 5); the
 * median and the range are printed. The archive is extracted under
 * ACTION_RESTORE_DIR (default: the temporary folder); /dev/shm takes the
 * disk out of the figure, leaving what decompression and file creation
 * cost the CPU.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/shared/package-root.js';
import { parseYaml } from '../src/shared/parse-yaml.js';
import { median } from './pairs.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(join(tmpdir(), 'animal-store-action-cost-'));

/** Runs a command, returns its wall time in seconds; throws when it fails. */
function timed(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(-1000)}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function actionCopy(): { dir: string; missSeconds: number | undefined } {
  if (process.env.ACTION_COPY) return { dir: process.env.ACTION_COPY, missSeconds: undefined };
  const dir = join(work, 'action');
  execFileSync('git', ['clone', '--quiet', packageRoot(), dir]);
  const missSeconds = timed('bash', ['-c', 'npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund'], { cwd: dir });
  return { dir, missSeconds };
}

/** The run scripts of the Action's steps that come before the cache: the Node check and the cache key. */
function stepsBeforeTheCache(): string[] {
  const action = parseYaml(readFileSync(join(packageRoot(), 'action.yml'), 'utf8')) as { runs: { steps: Array<{ id?: string; run?: string }> } };
  return ['node', 'key'].map((id) => {
    const run = action.runs.steps.find((step) => step.id === id)?.run;
    if (run === undefined) throw new Error(`action.yml has no run step with id ${id}`);
    return run;
  });
}

const range = (values: readonly number[]): string => `${median(values)?.toFixed(2)} s (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

try {
  const { dir, missSeconds } = actionCopy();
  const archive = join(work, 'cache.tzst');
  timed('tar', ['--posix', '-cf', archive, '-P', '-C', dir, '--use-compress-program', 'zstdmt --long=30', 'node_modules', 'dist'], { cwd: dir });
  const steps = stepsBeforeTheCache();
  const output = join(work, 'github-output');
  const before: number[] = [];
  const extract: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    writeFileSync(output, '');
    before.push(steps.reduce((sum, script) => sum + timed('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: dir, env: { ...process.env, GITHUB_OUTPUT: output, RUNNER_OS: 'Linux' } }), 0));
    const into = mkdtempSync(join(process.env.ACTION_RESTORE_DIR ?? work, 'animal-store-restore-'));
    extract.push(timed('tar', ['-xf', archive, '-P', '-C', into, '--use-compress-program', 'zstd -d --long=30'], { cwd: into }));
    rmSync(into, { recursive: true, force: true });
  }
  const files = Number(execFileSync('bash', ['-c', `tar -tf ${JSON.stringify(archive)} --use-compress-program 'zstd -d --long=30' | wc -l`], { encoding: 'utf8' }).trim());
  console.log(`node ${process.versions.node}, ${runs} hits${missSeconds === undefined ? '' : `, one miss`}`);
  if (missSeconds !== undefined) console.log(`miss: npm ci and npm prune --omit=dev: ${missSeconds.toFixed(1)} s`);
  console.log(`hit: the Node check and the cache key: ${range(before)}`);
  console.log(`hit: the archive, ${(statSync(archive).size / 1e6).toFixed(1)} MB and ${files} entries, extracted: ${range(extract)} (its download is not measured here)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
