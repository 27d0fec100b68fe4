import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { ExpectStatic } from 'vitest';
import type { DriftReport } from '../../src/verdict/drift-report.js';
import { loadDefaultProfile, type LoadedProfile } from '../../src/mock/core/profile/checked-profile.js';
import { loadProfile } from '../../src/mock/core/profile/load-profile.js';
import { parseYaml } from '../../src/shared/parse-yaml.js';
import type { ProfileFile } from '../../src/shared/profile/profile.js';
import type { ProfilePoint } from '../../src/shared/profile/profile-points.js';
import { CONTRACT_BIN, startApiServer } from '../support/contract-cli.js';
import { useContractRun, type ContractRunFixture } from '../support/contract-run-fixture.js';
import { driftBetween, type StartedServer } from '../support/drift-run.js';
import { childEnv } from '../support/processes.js';
import { differingPoints, namedPoints } from '../support/profile-drift.js';

/**
 * The profile's promise, on many seeds: the harness writes a server's
 * choices (`--write-profile`, the built CLI), the mock under that profile
 * (loaded as `--profile` loads it) then drifts from the server nowhere the
 * profile covers, and without it exactly where their choices differ.
 * One test file a server (profile-drift-*.test.ts), so that the proofs run
 * side by side.
 */
export const KEY = 'profile-drift-key';
/** What a server not built on the mock's router answers otherwise than the mock, and the mock will not copy (src/contract-tests/drift/not-copied.ts). */
export const OTHER_TARGET_FORMS = 'the answer to a target RFC 3986 does not call the same as the plain one (//, another case, ;x=1, %2F, \\, #x, an empty query piece)';
/** An OPTIONS request the interface does not name: a server answering it as a CORS preflight, as the mock does, shows none. */
export const OPTIONS_ANSWER = 'the answer to an OPTIONS request (with a method override, or a CORS preflight)';
const SEEDS = Array.from({ length: 20 }, (_, i) => 7001 + i * 4099);
/**
 * Without the profile, the drift only has to be named right: the first five
 * seeds do. Both sides already pass every rule on twenty seeds, the server
 * in the drift with the profile, the mock alone against itself in
 * drift.test.ts; twenty more here would add no case, only time.
 */
const WITHOUT_SEEDS = SEEDS.slice(0, 5);
// Each drift run is two full harness runs at once: three at a time keep a loaded 2-core machine within the timeouts.
const limit = pLimit(3);

const mock = (profile?: LoadedProfile) => () => startApiServer({ apiKey: KEY, ...(profile && { profile }) });
const drift = (a: () => Promise<StartedServer>, b: () => Promise<StartedServer>, seed: number, failing: readonly string[] = []): Promise<DriftReport> =>
  driftBetween(a, b, { seed, keys: { a: KEY, b: KEY }, failures: failing.length > 0 ? 'allowed' : 'none' });

/** Where a server's proof differs from a correct server's. */
export interface ProofOptions {
  /** Points the learning run leaves to the mock, with a note (a choice the mock will not copy). */
  notes?: readonly ProfilePoint[];
  /** Rules the server fails on choices the profile holds (a name limit under the harness's line), as the mock under it then does. */
  failing?: readonly string[];
  /** What the drift sets apart as not copied by the mock, once each. */
  notCopied?: readonly string[];
  /** What the mock will not copy that some seeds meet and others do not (a form a random case draws). */
  mayNotCopy?: readonly string[];
}
const onSeeds = (seeds: readonly number[], run: (seed: number) => Promise<DriftReport>): Promise<DriftReport[]> => Promise.all(seeds.map((seed) => limit(() => run(seed))));
const shown = (report: DriftReport): string[] => report.groups.map((g) => `${g.cause}: A ${g.a}, B ${g.b}`);
/** An inconsistency as a line a failure prints whole: the side, the point, its answers in order, and the request. */
const flapped = (report: DriftReport): string[] => report.inconsistent.map((i) => `${i.side} ${i.cause}: ${i.answers.join(' then ')} (${i.example})`);

/** `--write-profile` from the server `start` starts, with the built harness; the profile as the mock loads it, and as written. */
async function learn(run: ContractRunFixture, name: string, start: () => Promise<StartedServer>, expect: ExpectStatic): Promise<{ loaded: LoadedProfile; file: ProfileFile }> {
  const { processes, dir } = run;
  const server = await start();
  try {
    const file = join(dir(), `${name}.profile.yaml`);
    const run = await processes.node([CONTRACT_BIN, '--api-key', KEY, '--base-url', server.url, '--seed', '1', '--write-profile', file], { env: childEnv(), cwd: dir() });
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    const loaded = loadProfile(file);
    if (!loaded.ok) throw new Error(loaded.error);
    return { loaded: loaded.value, file: parseYaml(readFileSync(file, 'utf8')) as ProfileFile };
  } finally {
    await server.close();
  }
}

/** Without the profile: the points a report's groups name, every group following from one. */
function namedBy(report: DriftReport, seed: number, differing: readonly ProfilePoint[], choices: LoadedProfile['profile']['choices'], expect: ExpectStatic): ProfilePoint[] {
  expect(flapped(report), `seed ${seed}`).toEqual([]);
  const { named, unexplained } = namedPoints(report.groups, differing, choices);
  expect(unexplained, `seed ${seed}`).toEqual([]);
  return named;
}

/**
 * The whole proof for one server: the harness learns every point (no
 * notes), the mock under that profile drifts from it nowhere on 20 seeds,
 * and without it, on the first 5 of them, each seed names only the points
 * where the server's choices differ from the mock's own, together all of
 * them.
 */
async function proveProfile(run: ContractRunFixture, name: string, start: () => Promise<StartedServer>, expect: ExpectStatic, options: ProofOptions = {}): Promise<ProfileFile> {
  const { loaded, file } = await learn(run, name, start, expect);
  expect(Object.keys(file.notes ?? {}).sort()).toEqual([...(options.notes ?? [])].sort());
  const own = loadDefaultProfile().profile.choices;
  const differing = differingPoints(loaded.profile.choices, own);
  const [withProfile, without] = await Promise.all([
    onSeeds(SEEDS, (seed) => drift(start, mock(loaded), seed, options.failing)),
    onSeeds(WITHOUT_SEEDS, (seed) => drift(start, mock(), seed, options.failing)),
  ]);
  for (const [i, report] of withProfile.entries()) {
    expect(shown(report), `seed ${SEEDS[i]}`).toEqual([]);
    expect(flapped(report), `seed ${SEEDS[i]}`).toEqual([]);
    expect(report.compared).toBeGreaterThan(500);
    expect(report.failedOnB.map((f) => f.id), `seed ${SEEDS[i]}`).toEqual(options.failing ?? []);
    // In any order: the report lists them by how many cases each covers, which differs from seed to seed.
    const optional = new Set(options.mayNotCopy ?? []);
    expect(report.notCopied.map((n) => n.what).filter((what) => !optional.has(what)).sort(), `seed ${SEEDS[i]}`).toEqual([...(options.notCopied ?? [])].sort());
  }
  // Each seed names only differing points; together they name all (a case may go out of step before one: an empty name refused first).
  const named = new Set<ProfilePoint>();
  for (const [i, report] of without.entries()) for (const point of namedBy(report, WITHOUT_SEEDS[i] as number, differing, loaded.profile.choices, expect)) named.add(point);
  expect([...named].sort()).toEqual([...differing].sort());
  return file;
}

/** For one test file: the built harness and a folder, and the proof for a server. */
export function useProfileDriftProof(name: string): (start: () => Promise<StartedServer>, expect: ExpectStatic, options?: ProofOptions) => Promise<ProfileFile> {
  const run = useContractRun(`profile-drift-${name}`);
  return (start, expect, options) => proveProfile(run, name, start, expect, options);
}
