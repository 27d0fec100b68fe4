import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type TestServer } from '../../test/support/contract-cli.js';
import { childEnv } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { otherChoices } from '../../test/servers/other-choices.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * `--compare-with` through the built CLI: the Drift section in every
 * reporter, each target's own key never printed, and the exit codes (drift
 * is reported, exit 0; with --fail-on-drift it exits 1).
 */
const KEY = 'contract-drift-key-a';
const OTHER_KEY = 'contract-drift-key-b';
const { processes, servers, dir } = useContractRun('contract-drift');
const contract = (args: string[]) => processes.node([CONTRACT_BIN, ...args], { env: childEnv(), cwd: dir() });
const kept = <T extends TestServer>(server: T): T => (servers.push(server), server);

describe('animal-store-contract --compare-with', () => {
  it('reports drift in every reporter, exits 0 without --fail-on-drift and 1 with it, and prints neither key', { timeout: 120_000 }, async ({ expect }) => {
    const a = kept(await startApiServer({ apiKey: KEY }));
    const b = kept(await startApiServer({ apiKey: OTHER_KEY, wrap: otherChoices(OTHER_KEY) }));
    const args = ['--base-url', a.url, '--api-key', KEY, '--compare-with', b.url, '--compare-api-key', OTHER_KEY, '--seed', '11'];
    const run = await contract([...args, '--reporter', 'json', '--output', 'drift.json', '--reporter', 'junit', '--output', 'drift.xml', '--reporter', 'html', '--output', 'drift.html']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Drift: A ${a.url} against B ${b.url}`);
    expect(run.stdout).toContain('createPet: whether `Location` is sent with 201: A sent (/v1/pets/{id}), B not sent');
    const json = JSON.parse(readFileSync(join(dir(), 'drift.json'), 'utf8')) as SuiteReport;
    expect(json.drift?.groups.map((g) => g.cause)).toContain('createPet: whether `Location` is sent with 201');
    expect(json.drift?.failedOnB).toEqual([]);
    const junit = readFileSync(join(dir(), 'drift.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="drift" tests="\d+" failures="0"/);
    const html = readFileSync(join(dir(), 'drift.html'), 'utf8');
    expect(html).toContain('<section id="drift"><h2>Drift</h2>');
    for (const text of [run.stdout, JSON.stringify(json), junit, html]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OTHER_KEY);
    }

    const failing = await contract([...args, '--fail-on-drift', '--reporter', 'junit', '--output', 'failing.xml']);
    expect(failing.code).toBe(1);
    expect(readFileSync(join(dir(), 'failing.xml'), 'utf8')).toMatch(/<testsuite name="drift" tests="(\d+)" failures="\1"/);
  });

  it('exits 0 with --fail-on-drift when the two targets answer alike', { timeout: 120_000 }, async ({ expect }) => {
    const [a, b] = [kept(await startApiServer({ apiKey: KEY })), kept(await startApiServer({ apiKey: KEY }))];
    const run = await contract(['--base-url', a.url, '--api-key', KEY, '--compare-with', b.url, '--fail-on-drift', '--seed', '12']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No drift: the two targets answered every compared case alike.');
  });

  it('refuses a --compare-with that is not an API base URL (exit 2)', async ({ expect }) => {
    const run = await contract(['--base-url', 'http://127.0.0.1:1/v1', '--api-key', KEY, '--compare-with', 'http://127.0.0.1:1/api']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--compare-with must be http(s) and end in /v1');
  });
});
