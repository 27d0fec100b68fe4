import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { RENDERER_FILES, RENDERER_NOTICES } from '../../src/mock/core/docs/renderer-dir.js';
import { childEnv, Processes, requireBuilt, type Run } from '../support/processes.js';
import { docLinks, readDoc } from '../support/markdown.js';
import { npmChildEnv, writeOfflineProject } from './offline-project.js';
import { checked, packInto } from './packed.js';

/**
 * The package as a user gets it: `npm pack` of the built repository, its
 * file list, an offline install into a fresh project, and the installed
 * `animal-store-mock` started and asked for animals. Real processes only.
 */

const ROOT = packageRoot();
const DEFAULT_KEY = 'animal-store-dev-key';
/**
 * The one warning npm prints here that the package does not cause: this
 * machine's own ~/.npmrc sets `nodedir`, which npm 11 no longer knows. It is
 * printed by every npm command on this machine, whatever it installs.
 */
const MACHINE_NPMRC_WARNING = 'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm. See `npm help npmrc` for supported config options.';

const processes = new Processes();
let work: string;
let shipped: string[];
let install: Run;
let project: string;

/** The files the build emits from `dir` (a folder of src/), as the package must ship them: every .ts but tests and suites, as JavaScript and its types (the entry points' types reach into them). */
function builtFrom(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.suite.ts'))
    .flatMap((file) => ['.js', '.d.ts'].map((extension) => `dist/${dir}/${file.replaceAll('\\', '/').replace(/\.ts$/, extension)}`));
}

beforeAll(async () => {
  requireBuilt(join(ROOT, 'dist', 'generated', 'validators.cjs'), join(ROOT, 'dist', 'src', 'mock', 'bin.js'));
  // Its real path: the installed mock names its files by theirs.
  work = realpathSync(mkdtempSync(join(tmpdir(), 'animal-store-package-')));
  const env = npmChildEnv(childEnv());
  const tarball = await packInto(processes, work);
  const listing = await checked(processes.run('tar', ['-tzf', join(work, tarball)], { env, cwd: work }), 'tar -tzf');
  shipped = listing.stdout.split('\n').filter(Boolean).map((path) => path.replace(/^package\//, ''));
  project = join(work, 'project');
  mkdirSync(project);
  writeOfflineProject(project, `../${tarball}`);
  install = await checked(processes.run('npm', ['install', '--offline', '--no-audit', '--no-fund', `../${tarball}`], { env, cwd: project }), 'npm install --offline');
}, 60_000);

afterAll(async () => {
  await processes.killAll();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships the built mock and harness, the precompiled validators, documented pairs and operations and their data, the API reference\'s renderer, and no test, test helper or source map', () => {
    expect(shipped.filter((path) => /\.(test|suite)\.js$|\.map$|(^|\/)(test|tests|support)\//.test(path))).toEqual([]);
    // Exactly what runs: src/ built without its tests (a test helper under src/ would show here), the validators, and the renderer /docs serves with its licences.
    const renderer = [...RENDERER_FILES, ...RENDERER_NOTICES].map((file) => `dist/docs-renderer/${file}`);
    // The command's bundle writes its lazily loaded parts beside it (scripts/bundle-bin.ts).
    const chunks = readdirSync(join(ROOT, 'dist', 'src', 'mock', 'bin-chunks')).map((file) => `dist/src/mock/bin-chunks/${file}`);
    expect(chunks.length).toBeGreaterThan(0);
    expect(shipped.filter((path) => path.startsWith('dist/')).sort()).toEqual([...builtFrom('src'), ...chunks, 'dist/generated/validators.cjs', 'dist/generated/transactions.json', 'dist/generated/operations.json', ...renderer].sort());
    const scenarios = readdirSync(join(ROOT, 'scenarios')).map((file) => `scenarios/${file}`);
    const consoleFiles = readdirSync(join(ROOT, 'console')).map((file) => `console/${file}`);
    // The README and the guides, the interface description and the pictures they show, and the licence.
    const guides = readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
    const screenshots = readdirSync(join(ROOT, 'docs', 'screenshots')).map((file) => `docs/screenshots/${file}`);
    // The default profile every start reads, and the schema editors use.
    const profiles = readdirSync(join(ROOT, 'profiles')).map((file) => `profiles/${file}`);
    expect(shipped).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'BENCHMARKS.md', 'docs/animal-store-interface.md', ...guides, ...screenshots, 'openapi/animal-store.yaml', 'fixtures/pets.json', 'contract-tests.config.yaml', ...scenarios, ...consoleFiles, ...profiles]));
    expect(shipped.filter((path) => path.startsWith('docs/pending/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.values(manifest.bin).filter((bin) => !shipped.includes(bin))).toEqual([]);
  });

  it('holds every document and picture its README and guides link to, the interface description first', () => {
    const documents = shipped.filter((path) => path === 'README.md' || /^docs\/[^/]+\.md$/.test(path));
    const linked = documents.flatMap((doc) =>
      docLinks(readDoc(doc))
        .map((link) => link.target.split('#')[0] ?? '')
        .filter((target) => /\.(md|png)$/.test(target) && !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .map((target) => posix.normalize(posix.join(posix.dirname(doc), target))),
    );
    expect(linked).toContain('docs/animal-store-interface.md');
    expect(linked).toContain('docs/screenshots/console.png');
    expect([...new Set(linked)].filter((path) => !shipped.includes(path))).toEqual([]);
  });

  it('installs offline, with no npm warning of its own but the review list of scripts', () => {
    const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /^npm warn/i.test(line) && line !== MACHINE_NPMRC_WARNING);
    // npm 11.16 and later list, for review, a non-registry package's `prepare` (the build, for a git dependency):
    // from a tarball it does not run. Nothing else may warn.
    const review = warnings.filter((line) => line.startsWith('npm warn install-scripts'));
    expect(warnings.filter((line) => !review.includes(line))).toEqual([]);
    if (review.length > 0) expect(review.filter((line) => /animal-store-mock@/.test(line))).toEqual([expect.stringContaining('(prepare: npm run build)')]);
    expect(install.stdout).toMatch(/added \d+ packages?/);
  });

  it('runs the built commands themselves, as npx and node_modules/.bin do in a clone after a rebuild', async () => {
    // Run as commands, not through node: without the execute bit the spawn fails (EACCES), as `npx animal-store-contract` did.
    for (const bin of ['dist/src/mock/bin.js', 'dist/src/contract-tests/bin.js']) {
      const help = await processes.run(join(ROOT, bin), ['--help'], { cwd: ROOT });
      expect([bin, help.code, help.stdout.split('\n')[0]]).toEqual([bin, 0, expect.stringMatching(/^animal-store-(mock|contract)\b/)]);
    }
  });

  it('checks the installed mock with the installed animal-store-contract: every contract rule passes', { timeout: 60_000 }, async () => {
    const env = childEnv();
    for (const name of ['PORT', 'HOST', 'MOCK_API_KEYS', 'CONTRACT_API_KEY']) delete env[name];
    const bin = (name: string) => join(project, 'node_modules', '.bin', name);
    const [, line] = await processes.startCommand(bin('animal-store-mock'), ['--port', '0'], /^(\{.*"msg":"Animal Store mock listening on .*\})\n/m, { env, cwd: project });
    const { url } = JSON.parse(line!) as { url: string };
    const run = await processes.run(bin('animal-store-contract'), ['--base-url', url, '--api-key', DEFAULT_KEY, '--reporter', 'json', '--seed', '1'], { env, cwd: project });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; summary: { contractFailed: number; passed: number } };
    expect([report.ok, report.summary.contractFailed]).toEqual([true, 0]);
    expect(report.summary.passed).toBeGreaterThan(0);
    await processes.killAll();
  });

  it('starts the installed animal-store-mock, which compiles no validator at start-up and answers GET /v1/pets', { timeout: 20_000 }, async () => {
    const env = childEnv();
    // The runner's own choices must not reach the mock: it listens and accepts keys as installed.
    for (const name of ['PORT', 'HOST', 'MOCK_API_KEYS']) delete env[name];
    const bin = join(project, 'node_modules', '.bin', 'animal-store-mock');
    // Standard output is a pipe, so the start-up line is JSON.
    const [, line] = await processes.startCommand(bin, ['--port', '0'], /^(\{.*"msg":"Animal Store mock listening on .*\})\n/m, { env, cwd: project });
    const started = JSON.parse(line!) as { url: string; validators: string; catalogue: string };
    expect(started.validators).toMatch(/^0 compiled at start-up, [1-9]\d* precompiled by the build$/);
    // The installed copy serves its own files, not the repository's.
    expect(started.catalogue).toContain(join(project, 'node_modules', 'animal-store-mock', 'fixtures', 'pets.json'));
    const response = await fetch(`${started.url}/pets`, { headers: { authorization: `Bearer ${DEFAULT_KEY}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    // /docs from the files the package ships: swagger-ui-dist (and @scarf/scarf's install script under it) is not installed.
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('swagger-ui-dist');
    const origin = new URL(started.url).origin;
    const page = await fetch(`${origin}/docs`);
    expect(page.status).toBe(200);
    for (const [, asset] of (await page.text()).matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)) {
      expect((await fetch(origin + asset!)).status, asset).toBe(200);
    }
    // The QA console ships in the package: its page and scripts are served offline.
    const script = await fetch(`${origin}/__mock/console/console.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    await processes.killAll();
  });
});
