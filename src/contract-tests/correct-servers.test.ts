import pLimit from 'p-limit';
import { describe, it } from 'vitest';
import { createResponseValidator } from '../contract/response-validator.js';
import { startReferenceServer } from '../../test/servers/reference-server.js';
import { startApiServer } from './cli-test-support.js';
import { runSuite, type SuiteReport } from './run-suite.js';

/**
 * The other side of the faulty servers: two correct implementations, the
 * mock and an independent one written from the interface alone (with other
 * choices where it is silent), must pass every rule on any seed. Twenty
 * seeds, each run against a fresh server of each.
 */
const KEY = 'correct-servers-key';
const SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i * 7919);
const validator = createResponseValidator();
const limit = pLimit(4);

const servers = {
  mock: async () => startApiServer({ apiKey: KEY }),
  reference: async () => startReferenceServer({ apiKey: KEY }),
};

async function runOn(kind: keyof typeof servers, seed: number): Promise<SuiteReport> {
  const server = await servers[kind]();
  try {
    const run = await runSuite({ baseUrl: server.url, apiKey: KEY, seed, validator: await validator });
    if (!run.ok) throw new Error(`${kind}, seed ${seed}: ${run.error.message}`);
    return run.report;
  } finally {
    await server.close();
  }
}

/** Each failed rule with its first finding, so a failure says what and where. */
const failures = (report: SuiteReport) =>
  report.results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.findings.find((f) => f.level === 'error')?.message} ${r.findings[0]?.reproduce?.curl ?? ''}`);

describe.each(Object.keys(servers) as Array<keyof typeof servers>)('the %s', (kind) => {
  it(`passes every rule on ${SEEDS.length} seeds`, { timeout: 240_000 }, async ({ expect }) => {
    const reports = await Promise.all(SEEDS.map((seed) => limit(() => runOn(kind, seed))));
    for (const report of reports) {
      expect(failures(report), `seed ${report.seed}`).toEqual([]);
      expect(report.seed).toBe(SEEDS[reports.indexOf(report)]);
      // The generated rules did send cases: a search that sends nothing cannot fail.
      const generated = report.results.filter((r) => r.cases !== undefined);
      expect(generated.length).toBeGreaterThanOrEqual(9);
      for (const r of generated) expect(r.cases, r.id).toBeGreaterThan(0);
    }
  });
});

