import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CONTRACT_BIN, MOCK_BIN } from '../../test/support/contract-cli.js';
import { childEnv } from '../../test/support/processes.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * How far a run pushed its target, as its report says, held to what the
 * built mock itself counts: the animals its shared catalogue gained (the
 * runs share it here, on purpose, to be counted) and what it holds.
 */
const KEY = 'growth-test-key-2024';
const { processes, dir } = useContractRun('growth');

const petsOf = async (url: string): Promise<number> => ((await fetch(url.replace(/\/v1$/, '/__mock/health')).then((r) => r.json())) as { pets: number }).pets;

describe.concurrent('growth in the report (the built CLI and the built mock)', { timeout: 90_000 }, () => {
  it.for(['standard', 'deep'])('--depth %s: the animals created are those the mock gained, the catalogue read at most what it holds, as the report says', async (depth, { expect }) => {
    const [, url = ''] = await processes.start([MOCK_BIN, '--port', '0', '--host', '127.0.0.1', '--api-key', KEY, '--quiet'], /listening on (http:\/\/[^\s"]+\/v1)/);
    const before = await petsOf(url);
    const file = join(dir(), `${depth}.json`);
    const run = await processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', KEY, '--seed', '3', '--depth', depth, '--shared-session', '--reporter', 'json', '--output', file], { env: childEnv(), cwd: dir() });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const after = await petsOf(url);
    const { growth } = JSON.parse(readFileSync(file, 'utf8')) as SuiteReport;
    expect(growth?.created).toBe(after - before);
    expect(growth?.largestCatalogue).toBeLessThanOrEqual(after);
    // Past the largest page for any writing run; past three pages of 100 with --depth deep.
    expect(growth?.largestCatalogue).toBeGreaterThan(depth === 'deep' ? 300 : 100);
    expect(growth?.requests).toBeGreaterThan(growth?.created ?? Infinity);
    expect(run.stdout).toContain(`Growth: ${growth?.created} animals created, at least ${growth?.largestCatalogue} animals in the catalogue (distinct ids read), ${growth?.requests} requests sent (--depth ${depth})`);
  });

  it('--depth another is bad usage', async ({ expect }) => {
    const run = await processes.node([CONTRACT_BIN, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--depth', 'deeper'], { env: childEnv(), cwd: dir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--depth must be standard or deep, got "deeper"');
  });
});
