import { cpSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, it } from 'vitest';
import { CONTRACT_BIN, MOCK_BIN, startRawServer, type TestServer } from '../test/support/contract-cli.js';
import { useContractRun } from '../test/support/contract-run-fixture.js';
import { childEnv, requireBuilt, type Run } from '../test/support/processes.js';
import { packageRoot } from '../src/shared/package-root.js';
import { parseYaml } from '../src/shared/parse-yaml.js';

/**
 * The GitHub Action's step (scripts/github-action.sh, run by action.yml) as
 * the runner runs it: bash, with the inputs in the variables action.yml
 * sets and the files GitHub gives every step (GITHUB_STEP_SUMMARY,
 * GITHUB_OUTPUT), against the built mock in its flaky scenario and against
 * a server whose Error code holds what annotations and Markdown must escape.
 * What GitHub itself does (setup-node, upload-artifact, rendering) cannot
 * run here: action.yml is checked to hand the script its inputs, and the
 * files it uploads are checked to be written.
 */
const SCRIPT = join(packageRoot(), 'scripts', 'github-action.sh');
// A key with characters that URL-encoding and base64 change.
const KEY = 'gha-Secret/Key+42~ok==';
const { processes, servers, dir } = useContractRun('github-action');

interface StepRun extends Run {
  summary: string;
  output: string;
  reports: string;
}

/** Runs the step in a folder of its own, as the runner would: its summary file already holds an earlier step's text. */
async function step(name: string, inputs: Record<string, string>): Promise<StepRun> {
  const folder = join(dir(), name);
  mkdirSync(folder, { recursive: true });
  const [summary, output, reports] = [join(folder, 'step-summary.md'), join(folder, 'github-output'), join(folder, 'contract-reports')];
  writeFileSync(summary, 'An earlier step wrote this.\n');
  writeFileSync(output, '');
  const env = childEnv({ GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: folder, RUNNER_TEMP: folder, CONTRACT_REPORTS_DIR: 'contract-reports', ...inputs });
  const run = await processes.run('bash', [SCRIPT], { env, cwd: folder });
  return { ...run, summary: readFileSync(summary, 'utf8'), output: readFileSync(output, 'utf8'), reports };
}

/** The workflow commands of a step's output, their properties and message unescaped (the runner's own reading). */
function annotations(stdout: string): Array<{ level: string; properties: Record<string, string>; message: string; raw: string }> {
  const unescape = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('::'))
    .map((raw) => {
      const match = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(raw);
      if (!match) throw new Error(`not a workflow command: ${raw}`);
      const properties = Object.fromEntries((match[2] ?? '').split(',').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), unescape(pair.slice(pair.indexOf('=') + 1))]));
      return { level: match[1] as string, properties, message: unescape(match[3] as string), raw };
    });
}

/** The key in the forms an output could hold it. */
const keyForms = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('base64url'), Buffer.from(`user:${KEY}`).toString('base64')];

function expectNoKey(expect: (value: unknown, message?: string) => { toBe(value: unknown): void }, run: StepRun): void {
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, summary: run.summary, output: run.output };
  for (const file of ['junit.xml', 'report.html', 'summary.md']) if (existsSync(join(run.reports, file))) texts[file] = readFileSync(join(run.reports, file), 'utf8');
  for (const [where, text] of Object.entries(texts)) for (const form of keyForms) expect(text.includes(form), `${form} in ${where}`).toBe(false);
}

let flakyUrl: string;

beforeAll(async () => {
  requireBuilt(MOCK_BIN, CONTRACT_BIN);
  const [, url] = await processes.start([MOCK_BIN, '--port', '0', '--scenario', 'flaky', '--no-watch', '--quiet', '--api-key', KEY], /listening on (http:\/\/[^\s"]+\/v1)/);
  flakyUrl = url as string;
}, 60_000);

describe('the action\'s step against the flaky mock', () => {
  let run: StepRun;
  beforeAll(async () => {
    run = await step('flaky', { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, CONTRACT_SEED: '7', CONTRACT_EXAMPLES: '5', CONTRACT_READ_ONLY: 'false' });
  }, 120_000);

  it('exits 1, says so in its output, and writes the JUnit and HTML reports the action uploads', ({ expect }) => {
    expect(run.code, run.stderr).toBe(1);
    expect(run.output).toBe('exit-code=1\n');
    const junit = readFileSync(join(run.reports, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit) as { testsuites: { failures: string } };
    expect(Number(parsed.testsuites.failures)).toBeGreaterThan(0);
    expect(readFileSync(join(run.reports, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
  });

  it('annotates the run: one ::error for the cause, with its rules and a replay line, naming no file outside the workspace', ({ expect }) => {
    const found = annotations(run.stdout);
    expect(found.map((a) => [a.level, a.properties.title])).toEqual([['error', 'cause-1: answered 503 service_unavailable with Retry-After']]);
    const [cause] = found;
    expect(cause?.raw).toContain('title=cause-1%3A answered 503 service_unavailable with Retry-After::');
    // The Action's document is in its own folder, outside the workspace: GitHub could show no such file.
    expect(cause?.properties.file).toBeUndefined();
    const lines = cause?.message.split('\n') ?? [];
    expect(lines[0]).toMatch(/^answered 503 service_unavailable with Retry-After: on \d+ of \d+ requests \(about 1 in [345]\), \d+ rules affected/);
    expect(lines[1]).toMatch(/^rules: [a-z0-9-]+(, [a-z0-9-]+)*/);
    expect(lines.some((line) => line.startsWith(`replay: curl -sS -i '${flakyUrl}/`))).toBe(true);
    // Plain text after the annotations: the verdict.
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Contract tests failed: exit code 1 /);
  });

  it('appends the verdict and the cause to the job summary, as Markdown', ({ expect }) => {
    expect(run.summary.startsWith('An earlier step wrote this.\n## Contract tests failed\n')).toBe(true);
    expect(run.summary).toMatch(/^\*\*Verdict:\*\* failed: exit code 1 \(.* from 1 cause\)$/m);
    expect(run.summary).toMatch(/^\| passed \| failed \| skipped \| warnings \| coverage \|$/m);
    expect(run.summary).toContain('### Failures by cause (1)');
    expect(run.summary).toMatch(/^\| cause-1 \| answered 503 service\\_unavailable with Retry-After \| on \d+ of \d+ requests \(about 1 in [345]\), \d+ rules affected, \d+ findings \|$/m);
    expect(run.summary).toContain('<details><summary>cause-1: the rules it affected, and one example</summary>');
    expect(run.summary).toMatch(/^```sh\ncurl -sS -i '/m);
    expect(run.summary).toContain('Full reports: ` contract-reports/junit.xml ` (junit), ` contract-reports/report.html ` (html)\n');
  });

  it('never shows the key, in any output or report, raw, URL-encoded or in base64', ({ expect }) => {
    expectNoKey(expect, run);
  });
});

describe('what the annotations and the summary must escape', () => {
  it('an Error code with a colon, a comma, a percent sign, a line break, a pipe and markup: escaped as the runner and Markdown read them', async ({ expect }) => {
    const code = 'boom: 100%, down\r\nnow | <b>`x`</b>';
    // The first request (a listPets with limit=1) is answered, so the target is judged rather than taken for a wrong one.
    const server: TestServer = await startRawServer((request, response) => {
      const probe = request.url === '/v1/pets?limit=1';
      response.writeHead(probe ? 200 : 500, { 'content-type': 'application/json' });
      response.end(probe ? '[]' : JSON.stringify({ code, message: 'down', status: 500 }));
    });
    servers.push(server);
    const run = await step('escaping', { CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: KEY, CONTRACT_READ_ONLY: 'true', CONTRACT_EXAMPLES: '0' });
    expect(run.code, run.stderr).toBe(1);
    const [first] = annotations(run.stdout);
    expect(first?.raw).toContain(`title=cause-1%3A answered 500 boom%3A 100%25%2C down%0D%0Anow | <b>\`x\`</b>::answered 500 boom: 100%25, down%0D%0Anow`);
    expect(first?.properties.title).toBe(`cause-1: answered 500 ${code}`);
    // One line per command: the break inside the code did not end it.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('now'))).toEqual([]);
    expect(run.summary).toContain('| cause-1 | answered 500 boom: 100%, down now \\| \\<b\\>\\`x\\`\\</b\\> |');
    expect(run.summary).not.toContain('<b>');
    expectNoKey(expect, run);
  });

  it.for([
    ['an empty api-key (a pull request from a fork)', { CONTRACT_API_KEY: '' }, /^the api-key input is empty: pass a secret .* a pull request from a fork is given no secrets/],
    ['an empty base-url', { CONTRACT_BASE_URL: '' }, /^the base-url input is empty: give the API's base URL, ending in \/v1/],
  ] as const)('%s: exit 2 before the harness runs, one annotation naming the input, and the summary says why', async ([, inputs, message], { expect }) => {
    const run = await step(`empty-${Object.keys(inputs)[0]}`, { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, ...inputs });
    expect([run.code, run.output]).toEqual([2, 'exit-code=2\n']);
    // Titled as the harness titles a run it could not start, so one search finds both.
    expect(annotations(run.stdout).map((a) => [a.properties.title, a.message])).toEqual([['Contract tests not run', expect.stringMatching(message)]]);
    expect(run.summary).toContain('## Contract tests not run');
    expect(run.summary).toMatch(message.source.startsWith('^') ? new RegExp(message.source.slice(1)) : message);
    expectNoKey(expect, run);
  });

  it('hands the args input to the harness, one argument a line; a run that cannot start is annotated with the harness\'s reason', async ({ expect }) => {
    const refused = await step('args', { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, CONTRACT_ARGS: '--timeout\nabc\n' });
    expect(refused.code).toBe(2);
    expect(annotations(refused.stdout).map((a) => [a.properties.title, a.message])).toEqual([['Contract tests not run', '--timeout must be a whole number from 1 to 600000, got "abc"']]);
    expect(refused.summary).toContain('--timeout must be a whole number');
    const unreachable = await step('unreachable', { CONTRACT_BASE_URL: 'http://127.0.0.1:9/v1', CONTRACT_API_KEY: KEY });
    expect(unreachable.code).toBe(2);
    expect(annotations(unreachable.stdout).map((a) => a.message)).toEqual([expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:9\/v1: ECONNREFUSED/)]);
    // An argument with a space stays one argument: no shell splits it again.
    const spaced = await step('args-spaced', { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, CONTRACT_ARGS: '--only\nno such rule' });
    expect(spaced.code).toBe(2);
    expect(annotations(spaced.stdout)[0]?.message).toContain('no such rule');
    expectNoKey(expect, refused);
    expectNoKey(expect, unreachable);
  });

  it("the api-key input is the key sent, even when the args choose a --config environment whose own key is another; the log names the target and the seed", async ({ expect }) => {
    const folder = join(dir(), 'config-env');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'envs.yaml'), `environments:\n  staging:\n    baseUrl: ${flakyUrl}\n    apiKeyFrom: STALE_STAGING_KEY\n`);
    const run = await step('config-env', { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, CONTRACT_SEED: '11', STALE_STAGING_KEY: 'a-stale-key', CONTRACT_ARGS: '--config\nenvs.yaml\n--env\nstaging\n--only\nlist-limit-1,get-unknown-id' });
    expect([0, 1], run.stdout).toContain(run.code);
    expect(run.stdout).not.toMatch(/401/);
    expect(run.stdout).toContain(`Contract tests against ${flakyUrl}\n`);
    expect(run.stdout).toContain('(replay with --seed 11)');
    expectNoKey(expect, run);
  });

  it('a read-only input that is neither true nor false: exit 2, one annotation, and the summary says the tests did not run', async ({ expect }) => {
    const run = await step('bad-input', { CONTRACT_BASE_URL: flakyUrl, CONTRACT_API_KEY: KEY, CONTRACT_READ_ONLY: 'yes' });
    expect(run.code).toBe(2);
    expect(run.output).toBe('exit-code=2\n');
    expect(annotations(run.stdout).map((a) => a.message)).toEqual(['the read-only input must be true or false']);
    expect(run.summary).toContain('## Contract tests not run');
    expectNoKey(expect, run);
  });
});

describe('action.yml', () => {
  const action = parseYaml(readFileSync(join(packageRoot(), 'action.yml'), 'utf8')) as {
    inputs: Record<string, { required?: boolean; default?: string }>;
    runs: { using: string; steps: Array<{ id?: string; uses?: string; if?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }> };
  };
  const script = readFileSync(SCRIPT, 'utf8');

  it('a composite action whose run step hands every input to the script through the variables it reads, the key only there', ({ expect }) => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(['api-key', 'args', 'artifact-name', 'base-url', 'examples', 'read-only', 'reports-dir', 'seed']);
    const run = action.runs.steps.find((s) => s.id === 'run');
    expect(run?.run).toBe('"$GITHUB_ACTION_PATH/scripts/github-action.sh"');
    const read = [...new Set([...script.matchAll(/\$\{(CONTRACT_[A-Z_]+)/g)].map((m) => m[1] as string))].filter((name) => name !== 'CONTRACT_HARNESS' && name !== 'CONTRACT_API_KEY').sort();
    expect(Object.keys(run?.env ?? {}).filter((name) => name !== 'CONTRACT_API_KEY').sort()).toEqual(read);
    expect(run?.env?.CONTRACT_API_KEY).toBe('${{ inputs.api-key }}');
    // The harness reads the key from CONTRACT_API_KEY, named by --api-key-from; the script never puts it on a command line.
    expect(script).not.toMatch(/--api-key(?!-from CONTRACT_API_KEY)/);
    const mentions = action.runs.steps.flatMap((s) => Object.values({ ...s.env, ...s.with, run: s.run ?? '' })).filter((value) => value.includes('inputs.api-key'));
    expect(mentions).toEqual(['${{ inputs.api-key }}']);
  });

  it('uploads the JUnit and HTML reports the script writes, even when the tests failed', ({ expect }) => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path?.trim().split('\n')).toEqual(['${{ inputs.reports-dir }}/junit.xml', '${{ inputs.reports-dir }}/report.html']);
    expect(script).toContain('--reporter junit --output "$reports/junit.xml"');
    expect(script).toContain('--reporter html --output "$reports/report.html"');
  });

  it("keys the built harness's cache by its sources alone: a copy the build has written to keys as a fresh one, and a changed source changes the key", async ({ expect }) => {
    const keyStep = action.runs.steps.find((s) => s.id === 'key');
    const copy = join(dir(), 'action-copy');
    mkdirSync(copy, { recursive: true });
    for (const path of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'scripts', 'openapi', 'profiles', 'scenarios', 'fixtures']) cpSync(join(packageRoot(), path), join(copy, path), { recursive: true, filter: (from) => !from.includes(`${sep}generated`) });
    const key = async (): Promise<string> => {
      const output = join(dir(), 'key-output');
      writeFileSync(output, '');
      const run = await processes.run('bash', ['-eo', 'pipefail', '-c', keyStep?.run ?? 'false'], { cwd: copy, env: childEnv({ GITHUB_OUTPUT: output, RUNNER_OS: 'Linux' }) });
      expect(run.code, run.stderr).toBe(0);
      return readFileSync(output, 'utf8').trim();
    };
    const fresh = await key();
    expect(fresh).toMatch(/^key=animal-store-contract-Linux-node\d+-[0-9a-f]{32}$/);
    mkdirSync(join(copy, 'src', 'generated'), { recursive: true });
    writeFileSync(join(copy, 'src', 'generated', 'validators.js'), 'written by the build\n');
    expect(await key()).toBe(fresh);
    writeFileSync(join(copy, 'openapi', 'animal-store.yaml'), '# changed\n', { flag: 'a' });
    expect(await key()).not.toBe(fresh);
  });
});
