import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type AppFetch, type TestServer } from '../../test/support/contract-cli.js';
import { loadProfile } from '../mock/core/profile/load-profile.js';
import { childEnv } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * The built CLI's --write-profile where it can fail, and --compare-with
 * with --env: the environment's key is for its own target only.
 */
const KEY = 'contract-profile-key-a';
const OTHER_KEY = 'contract-profile-key-b';
const { processes, servers, dir } = useContractRun('contract-profile');
const contract = (args: string[]) => processes.node([CONTRACT_BIN, ...args], { env: childEnv(), cwd: dir() });
const kept = <T extends TestServer>(server: T): T => (servers.push(server), server);
const config = (url: string) => {
  const file = join(dir(), 'environments.yaml');
  writeFileSync(file, `environments:\n  local:\n    baseUrl: ${url}\n    apiKey: ${KEY}\n`);
  return file;
};

describe('--compare-with with --env', () => {
  it('refuses to send the environment\'s key to the compared target: exit 2, naming --compare-api-key, nothing sent', async ({ expect }) => {
    const a = kept(await startApiServer({ apiKey: KEY }));
    const b = kept(await startApiServer({ apiKey: OTHER_KEY }));
    const run = await contract(['--env', 'local', '--config', config(a.url), '--compare-with', b.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--compare-with with --env local: pass --compare-api-key for the compared target');
    expect(run.stderr + run.stdout).not.toContain(KEY);
    expect(a.requests + b.requests).toBe(0);
  });

  it('compares the environment\'s target with another, each with its own key', { timeout: 60_000 }, async ({ expect }) => {
    const a = kept(await startApiServer({ apiKey: KEY }));
    const b = kept(await startApiServer({ apiKey: OTHER_KEY }));
    const run = await contract(['--env', 'local', '--config', config(a.url), '--compare-with', b.url, '--compare-api-key', OTHER_KEY, '--only', 'list-default-limit,get-unknown-id', '--reporter', 'json', '--output', 'env.json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir(), 'env.json'), 'utf8')) as SuiteReport;
    expect(report.drift?.groups).toEqual([]);
    expect(report.drift?.compared).toBeGreaterThan(0);
    expect(b.requests).toBeGreaterThan(0);
  });
});

describe('--write-profile', () => {
  it('a file that cannot be written: exit 2 with the reason, the run\'s report still printed', { timeout: 60_000 }, async ({ expect }) => {
    const a = kept(await startApiServer({ apiKey: KEY }));
    writeFileSync(join(dir(), 'a-file'), '');
    const run = await contract(['--base-url', a.url, '--api-key', KEY, '--only', 'list-default-limit', '--write-profile', 'a-file/staging.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot write the profile to .*a-file[/\\]staging\.yaml: /);
    expect(run.stdout).toMatch(/1 passed, 0 failed/);
  });

  /** A target refusing names past 64 code points with its own 400, as the mock does under such a profile. */
  const limited = (wrap?: (fetch: AppFetch) => AppFetch) => {
    const file = join(dir(), 'limited.yaml');
    writeFileSync(file, 'version: 1\nname: limited\nchoices:\n  name-length: {max: 64, refused: {status: 400, code: name_too_long}}\n');
    const profile = loadProfile(file);
    if (!profile.ok) throw new Error(profile.error);
    return startApiServer({ apiKey: KEY, profile: profile.value, ...(wrap && { wrap }) });
  };

  it('learns a name limit at its boundary, under the harness\'s line too, and passes when its only failures are the choices it wrote', { timeout: 60_000 }, async ({ expect }) => {
    const a = kept(await limited());
    const learning = await contract(['--base-url', a.url, '--api-key', KEY, '--seed', '3', '--write-profile', 'learned.yaml', '--reporter', 'json', '--output', 'learned.json']);
    expect(learning.code, learning.stderr).toBe(0);
    const file = join(dir(), 'learned.yaml');
    expect(readFileSync(file, 'utf8')).toMatch(/ {2}name-length:\n {4}max: 64\n {4}refused:\n {6}status: 400\n {6}code: name_too_long\n/);
    expect(learning.stderr).toContain(`animal-store-contract: profile written to ${file}`);
    expect(learning.stderr).toContain("failed only on the target's choices, written into the profile (learned, not failed): create-generated-round-trip (name-length)");
    expect(learning.stderr).not.toContain('failed otherwise');
    const report = JSON.parse(readFileSync(join(dir(), 'learned.json'), 'utf8')) as SuiteReport;
    expect([report.ok, report.learning?.learnedFailures, report.learning?.otherFailures]).toEqual([true, [{ id: 'create-generated-round-trip', points: ['name-length'] }], []]);
    // The same target, judged: the refusal of ordinary names still fails it.
    const judged = await contract(['--base-url', a.url, '--api-key', KEY, '--seed', '3', '--only', 'create-generated-round-trip']);
    expect(judged.code).toBe(1);
    expect(judged.stdout).toContain('refused a valid NewPet with 400 name_too_long: a name of 65 code points');
  });

  it('fails a learning run on a failure no choice it wrote explains', { timeout: 60_000 }, async ({ expect }) => {
    // The same limit, and getPet's 404 without an Error body: no profile point says that.
    const a = kept(
      await limited((fetch) => async (request) => {
        const answer = await fetch(request);
        return answer.status === 404 ? Response.json({ message: 'gone' }, { status: 404 }) : answer;
      }),
    );
    const learning = await contract(['--base-url', a.url, '--api-key', KEY, '--seed', '3', '--write-profile', 'partly.yaml']);
    expect(learning.code, learning.stderr + learning.stdout.slice(0, 3000)).toBe(1);
    expect(learning.stderr).toContain('create-generated-round-trip (name-length)');
    expect(learning.stderr).toMatch(/failed otherwise: .*get-unknown-id/);
    expect(learning.stdout).toContain('Verdict: failed: exit code 1');
  });
});
