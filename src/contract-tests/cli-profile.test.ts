import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type TestServer } from '../../test/support/contract-cli.js';
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
});
