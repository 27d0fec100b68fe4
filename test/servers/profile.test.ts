import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, vi, type ExpectStatic } from 'vitest';
import { CONTRACT_BIN, MOCK_BIN, prettySummary } from '../support/contract-cli.js';
import { childEnv, requireBuilt } from '../support/processes.js';
import { useContractRun } from '../support/contract-run-fixture.js';
import { startReferenceServer } from './reference-server.js';
import { questionOf } from '../../src/contract-tests/silent-log.js';
import type { SuiteReport } from '../../src/verdict/report.js';
import { parseYaml } from '../../src/shared/parse-yaml.js';
import { defaultProfilePath } from '../../src/shared/profile/profile-paths.js';
import type { ProfileFile } from '../../src/shared/profile/profile.js';
import type { ProfilePoint } from '../../src/shared/profile/profile-points.js';

/**
 * The profile over real HTTP, as a team lead would use it: the built
 * harness writes what a server with other defensible choices (the
 * reference server) chose where the interface is silent; the built mock
 * started with that profile answers so, and the harness's drift run
 * between the two finds nothing left at those points, where against the
 * mock without it, it did. And the harness's profile of the mock is the
 * mock's own default profile.
 */
const KEY = 'profile-servers-key';
const { processes, dir } = useContractRun('profile');
const contract = (args: string[]) => processes.node([CONTRACT_BIN, '--api-key', KEY, ...args], { env: childEnv(), cwd: dir() });
const mock = async (args: string[] = []): Promise<string> => {
  requireBuilt(MOCK_BIN);
  const ready = await processes.start([MOCK_BIN, '--port', '0', '--log-format', 'pretty', '--quiet', '--api-key', KEY, ...args], /listening on (http:\/\/\S+\/v1)/, { env: childEnv() });
  return ready[1] as string;
};
const readProfile = (file: string) => parseYaml(readFileSync(join(dir(), file), 'utf8')) as ProfileFile;

/** The drift report's causes at the silent points a profile sets. */
const silentCause = (point: ProfilePoint): string => questionOf(point === 'limit' || point === 'status' ? { kind: 'query-parameter', name: point, values: 'refused' } : point);

async function driftCauses(a: string, b: string, seed: number): Promise<string[]> {
  const out = `drift-${seed}-${b.replace(/\D/g, '')}.json`;
  const run = await contract(['--base-url', a, '--compare-with', b, '--seed', String(seed), '--reporter', 'json', '--output', out]);
  if (run.code !== 0) throw new Error(`seed ${seed}: exit ${run.code}\n${run.stderr}\n${run.stdout.slice(-2000)}`);
  const report = JSON.parse(readFileSync(join(dir(), out), 'utf8')) as SuiteReport;
  return (report.drift?.groups ?? []).map((g) => g.cause);
}

describe('a profile learned from a server, served by the mock', () => {
  it('the reference server\'s choices, written into the shared mock\'s profile file: drift at its silent points before, none at all after, on 3 seeds', { timeout: 300_000 }, async ({ expect }) => {
    const reference = await startReferenceServer({ apiKey: KEY });
    try {
      await learnAndServe(reference.url, expect);
    } finally {
      await reference.close();
    }
  });

  it('the harness\'s profile of the mock is the mock\'s default profile, and the mock passes every rule', { timeout: 120_000 }, async ({ expect }) => {
    const url = await mock();
    const run = await contract(['--base-url', url, '--seed', '21', '--write-profile', 'mock.profile.json']);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(prettySummary(run.stdout)).toMatchObject({ failed: 0, skipped: 0 });
    const written = JSON.parse(readFileSync(join(dir(), 'mock.profile.json'), 'utf8')) as ProfileFile;
    const shipped = parseYaml(readFileSync(defaultProfilePath(), 'utf8')) as ProfileFile;
    expect(written.notes).toBeUndefined();
    expect(written.choices).toEqual(shipped.choices);
  });

  it('says why a point is left out: a read-only run reaches no createPet point', { timeout: 120_000 }, async ({ expect }) => {
    const url = await mock();
    const run = await contract(['--base-url', url, '--seed', '22', '--read-only', '--write-profile', 'read-only.profile.yaml']);
    expect(run.code).toBe(0);
    const profile = readProfile('read-only.profile.yaml');
    for (const point of ['default-status', 'location', 'media-type', 'name-length'] as const) {
      expect(profile.choices).not.toHaveProperty(point);
      expect(profile.notes?.[point]).toMatch(/^not reached by this run .*; the mock keeps its own choice$/);
    }
    expect(profile.choices.order).toBe('ascending');
    // And the mock reads it as written, notes and all.
    const served = await mock(['--profile', join(dir(), 'read-only.profile.yaml')]);
    expect(((await (await fetch(`${new URL(served).origin}/__mock/health`)).json()) as { profile: { name: string } }).profile.name).toBe('read-only.profile');
  });
});

/**
 * A team lead's steps: the shared mock runs with `--profile` on a file;
 * one command writes the server's profile into that file; the mock picks
 * it up without a restart; the drift report between the two is then
 * empty, every cause of it, where the mock without the profile drifts at
 * the silent points.
 */
async function learnAndServe(url: string, expect: ExpectStatic): Promise<void> {
  const shared = join(dir(), 'shared.profile.yaml');
  writeFileSync(shared, 'version: 1\nname: before\nchoices: {}\n');
  const [plain, profiled] = await Promise.all([mock(), mock(['--profile', shared])]);
  const written = await contract(['--base-url', url, '--seed', '7', '--write-profile', 'shared.profile.yaml']);
  expect(written.code, written.stderr).toBe(0);
  const profile = readProfile('shared.profile.yaml');
  expect(profile.name).toBe('shared.profile');
  expect(profile.notes).toBeUndefined();
  // The reference server's own choices (test/servers/reference-server.ts), each other than the mock's.
  expect(profile.choices).toMatchObject({
    order: 'descending',
    'default-status': 'available',
    'name-length': { max: 1000, refused: { status: 400, code: 'name_too_long' } },
    'body-size': { max: 65536, refused: { status: 413, code: 'body_too_large' } },
    'empty-name': { status: 400, code: 'empty_name' },
    challenge: 'Bearer',
    'media-type': { status: 415, code: 'unsupported_media_type' },
    'missing-body': { status: 400, code: 'empty_body' },
    'missing-field': { status: 400, code: 'missing_name', fields: { categoryId: { status: 400, code: 'missing_category_id' } } },
    limit: { refused: { status: 400, code: 'bad_limit' }, 'above-maximum': 'clamped' },
    status: { status: 400, code: 'bad_status' },
  });
  const causes = new Set((Object.keys(profile.choices) as ProfilePoint[]).map(silentCause));
  // Picked up by the running mock (hot reload), which still keeps the contract.
  await vi.waitFor(async () => expect(((await (await fetch(`${new URL(profiled).origin}/__mock/health`)).json()) as { profile: { name: string } }).profile.name).toBe('shared.profile'), { timeout: 10_000, interval: 100 });
  const alone = await contract(['--base-url', profiled, '--seed', '7']);
  expect(alone.code, alone.stdout.slice(-3000)).toBe(0);

  for (const seed of [7, 1234, 99991]) {
    const before = (await driftCauses(url, plain, seed)).filter((cause) => causes.has(cause));
    expect(before.length, `seed ${seed}: drift at the silent points without the profile`).toBeGreaterThanOrEqual(10);
    expect(await driftCauses(url, profiled, seed), `seed ${seed}: drift with the profile`).toEqual([]);
  }
}
