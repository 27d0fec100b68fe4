import pLimit from 'p-limit';
import { describe, it } from 'vitest';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { startReferenceServer } from './reference-server.js';
import { startApiServer, mockData } from '../support/contract-cli.js';
import { NAME_LIMIT, refusesLongNames } from './declared-limit-servers.js';
import { referenceCatalogue } from './reference-catalogue.js';
import { honoursRanges, ignoresEmptyLastSegment, redirectsEmptyLastSegment, refusesChunkedBodies, refusesOtherHosts, refusesSpelledIntegers, refusesUnnormalizedPaths, switchesToH2c } from './variation-choices.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { type SuiteReport } from '../../src/verdict/report.js';

/**
 * The other side of the faulty servers: correct implementations must pass
 * every rule on any seed. Twenty seeds, each run against a fresh server of
 * each. The mock, the reference server and the mock with other choices
 * run as they are in the drift proofs (drift.test.ts and
 * profile-drift-*.test.ts, 20 seeds each), where any contract failure on
 * either side fails the proof; here, the servers no drift proof runs:
 * catalogues holding int64 past 2^53, a declared name limit, and the
 * choices where the interface is silent on whether two spellings are one
 * request.
 */
const KEY = 'correct-servers-key';
const SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i * 7919);
const validator = createResponseValidator();
const limit = pLimit(4);

/**
 * Valid int64 categoryIds past 2^53, JavaScript's exact integers: a catalogue
 * holding them must pass (list-items-are-pets, list-status-* judge them).
 */
const BIG_CATEGORIES = [2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n];
const withBigCategories = <P extends { categoryId: number | bigint }>(pets: readonly P[]): P[] => pets.map((pet, i) => (i % 3 === 0 ? { ...pet, categoryId: BIG_CATEGORIES[(i / 3) % BIG_CATEGORIES.length] as bigint } : pet));

const servers = {
  'mock holding int64 categoryIds past 2^53': async () => startApiServer({ apiKey: KEY, pets: withBigCategories(mockData().pets) }),
  'reference holding int64 categoryIds past 2^53': async () => startReferenceServer({ apiKey: KEY, pets: withBigCategories(referenceCatalogue()) }),
  // A documented limit where the interface is silent, declared as a CI owner would (--allow-refusal name.maxLength=100).
  'mock with a declared name limit of 100': async () => startApiServer({ apiKey: KEY, wrap: refusesLongNames(KEY) }),
  // Where the interface is silent on whether two spellings are one request (variation-choices.ts).
  'mock redirecting /v1/pets/ to /v1/pets (301)': async () => startApiServer({ apiKey: KEY, wrap: redirectsEmptyLastSegment }),
  'mock answering /v1/pets/ as /v1/pets': async () => startApiServer({ apiKey: KEY, wrap: ignoresEmptyLastSegment }),
  'mock refusing categoryId 1.0 or 1e0 with 400': async () => startApiServer({ apiKey: KEY, wrap: refusesSpelledIntegers(KEY) }),
  'mock answering Range: bytes=0- with 206': async () => startApiServer({ apiKey: KEY, wrap: honoursRanges }),
  // Refusals a front end makes before any key check, alike with and without the key.
  'mock behind a strict firewall (400 to a path not normalized, before the key)': async () => startApiServer({ apiKey: KEY, intercept: refusesUnnormalizedPaths }),
  'mock behind a front end refusing chunked bodies (411, before the key)': async () => startApiServer({ apiKey: KEY, intercept: refusesChunkedBodies }),
  'mock behind a front end answering 421 to a Host not its own (before the key)': async () => startApiServer({ apiKey: KEY, intercept: refusesOtherHosts }),
  'mock switching to HTTP/2 (101) on Upgrade: h2c (before the key)': async () => startApiServer({ apiKey: KEY, intercept: switchesToH2c }),
};

/** What each server's owner declares it refuses. */
const DECLARED: Partial<Record<keyof typeof servers, { nameMaxLength: number; categoryKnown: false }>> = {
  'mock with a declared name limit of 100': { nameMaxLength: NAME_LIMIT, categoryKnown: false },
};

async function runOn(kind: keyof typeof servers, seed: number): Promise<SuiteReport> {
  const server = await servers[kind]();
  try {
    const declared = DECLARED[kind];
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, validator: await validator, ...(declared ? { allowRefusal: declared } : {}) });
    if (!run.ok) throw new Error(`${kind}, seed ${seed}: ${run.error.message}`);
    return run.report;
  } finally {
    await server.close();
  }
}

/** Each failed rule with its first finding, so a failure says what and where. */
const failures = (report: SuiteReport) =>
  report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message} ${r.findings[0]?.reproduce?.curl ?? ''}`);

/**
 * A server that differs from the mock only on a form every run sends among
 * its fixed cases (a Range asked for) needs no 20 seeds to show it passes:
 * the seeds vary the drawn cases, not those.
 */
const seedsOf = (kind: keyof typeof servers): number[] => (kind === 'mock answering Range: bytes=0- with 206' ? SEEDS.slice(0, 5) : SEEDS);

describe.each(Object.keys(servers) as Array<keyof typeof servers>)('the %s', (kind) => {
  it(`passes every rule on ${seedsOf(kind).length} seeds`, { timeout: 240_000 }, async ({ expect }) => {
    const seeds = seedsOf(kind);
    const reports = await Promise.all(seeds.map((seed) => limit(() => runOn(kind, seed))));
    for (const report of reports) {
      expect(failures(report), `seed ${report.seed}`).toEqual([]);
      expect(report.seed).toBe(seeds[reports.indexOf(report)]);
      // The generated rules did send cases: a search that sends nothing cannot fail.
      const generated = report.results.filter((r) => r.cases !== undefined);
      expect(generated.length).toBeGreaterThanOrEqual(9);
      for (const r of generated) expect(r.cases, r.id).toBeGreaterThan(0);
    }
  });
});

