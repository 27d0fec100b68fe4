import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { nodeBinary } from '../support/node-binary.js';
import { childEnv, Processes, requireBuilt } from '../support/processes.js';
import { npmChildEnv } from './offline-project.js';
import { checked, packInto } from './packed.js';

/**
 * The entry points for code, as a project that installs the packed package
 * uses them: `animal-store-mock/fetch`, `/msw` and `/contract`, with MSW 2
 * on this node and MSW 3 on node 22 (it needs 22.12), and their types
 * checked by the compiler in the project. Installed from the npm registry.
 */
const ROOT = packageRoot();
const HERE = join(ROOT, 'test', 'package', 'installed');
const processes = new Processes();
let work: string;
let tarball: string;

beforeAll(async () => {
  requireBuilt(join(ROOT, 'dist', 'src', 'entries', 'msw.js'));
  work = realpathSync(mkdtempSync(join(tmpdir(), 'animal-store-entries-')));
  tarball = await packInto(processes, work);
}, 60_000);

afterAll(async () => {
  await processes.killAll();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

/** A project with the package and `msw@<range>` installed, the test's files copied in. */
async function project(name: string, msw: string): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await checked(processes.run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict=false', `../${tarball}`, `msw@${msw}`], { env: npmChildEnv(childEnv()), cwd: dir }), `npm install msw@${msw}`);
  for (const file of ['use-entries.mjs', 'types.ts']) copyFileSync(join(HERE, file), join(dir, file));
  return dir;
}

const expected = { created: [201, { id: 31, name: 'Biscuit', categoryId: 2 }], readBack: 200, afterReset: 404, overridden: 503, contract: { passed: expect.any(Number), failed: 0 } };

describe('the installed entry points', () => {
  it('answer through MSW 2 on this node, and their types check', { timeout: 180_000 }, async () => {
    const dir = await project('with-msw-2', '^2.9.0');
    const run = await checked(processes.node(['use-entries.mjs'], { cwd: dir }), 'use-entries.mjs');
    expect(JSON.parse(run.stdout)).toEqual(expected);
    // Types for a client, generated from the contract document the package ships, as a frontend team would.
    await checked(processes.run('npm', ['install', '--no-audit', '--no-fund', 'openapi-fetch@^0.17.0', 'openapi-typescript@^7.0.0'], { env: npmChildEnv(childEnv()), cwd: dir }), 'npm install openapi-fetch openapi-typescript');
    await checked(processes.run(join(dir, 'node_modules', '.bin', 'openapi-typescript'), ['node_modules/animal-store-mock/openapi/animal-store.yaml', '-o', 'api.d.ts'], { cwd: dir }), 'openapi-typescript');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2023', 'DOM'] }, files: ['types.ts'] }));
    const tsc = await processes.node([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir });
    expect(tsc.stdout + tsc.stderr).toBe('');
  });

  it('answer through MSW 3 on node 22', { timeout: 240_000 }, async () => {
    const [node, dir] = await Promise.all([nodeBinary(22), project('with-msw-3', '^3.0.0')]);
    const run = await checked(processes.run(node, ['use-entries.mjs'], { cwd: dir }), 'use-entries.mjs on node 22');
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });
});
