import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { childEnv, Processes, type Run } from '../support/processes.js';
import { npmChildEnv } from './offline-project.js';
import { checked, installedPackage } from './packed.js';

/**
 * The package as a git dependency (`npm install git+https://…`, or
 * `github:owner/name`): npm clones it, installs its dev dependencies, runs
 * its `prepare` (the build), and installs what `files` lists. Tried on a
 * git repository made of this working tree's files, from npm's cache
 * alone, into a fresh project; real processes only.
 */

const ROOT = packageRoot();
const processes = new Processes();
let work: string;
let project: string;
let install: Run;

/** A git repository holding the working tree's files as they are now (tracked and new, not ignored), committed once. */
async function repositoryOfWorkingTree(dir: string): Promise<void> {
  const listed = await checked(processes.run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT }), 'git ls-files');
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    // A file deleted but not yet committed is still listed: there is nothing to copy.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  const git = (args: string[]) => checked(processes.run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd: dir }), `git ${args[0]}`);
  await git(['init', '--quiet']);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--message', 'the working tree']);
}

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'animal-store-git-')));
  const repository = join(work, 'repository');
  await repositoryOfWorkingTree(repository);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'installs-from-git', version: '1.0.0', private: true }, null, 2)}\n`);
  // --offline: the dependencies and dev dependencies come from the npm cache `npm ci` filled.
  install = await processes.run('npm', ['install', '--offline', '--no-audit', '--no-fund', `git+file://${repository}`], { env: npmChildEnv(childEnv()), cwd: project });
}, 300_000);

// Two installs' node_modules (the clone's with its dev dependencies) take a while to remove on a busy machine.
afterAll(async () => {
  await processes.killAll();
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

describe('the package as a git dependency', () => {
  it('is built by its prepare script while npm installs it, and its commands and entry points run', async () => {
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    const installed = installedPackage(project);
    expect(existsSync(join(installed, 'dist', 'generated', 'validators.cjs'))).toBe(true);
    const help = await processes.run(join(project, 'node_modules', '.bin', 'animal-store-contract'), ['--help'], { cwd: project });
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, expect.stringMatching(/^animal-store-contract\b/)]);
    const script = "const { createMock } = await import('animal-store-mock/fetch'); const mock = await createMock(); const r = await mock.fetch('http://localhost/v1/pets/1', { headers: { authorization: 'Bearer animal-store-dev-key' } }); console.log(r.status, (await r.json()).id); await mock.close();";
    const used = await processes.node(['--input-type=module', '--eval', script], { cwd: project });
    expect([used.code, used.stdout.trim()], used.stderr).toEqual([0, '200 1']);
  });
});
