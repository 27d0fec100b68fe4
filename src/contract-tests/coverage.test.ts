import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator, type ResponseValidator } from '../document/response-validator.js';
import { startApiServer, type ApiServer } from '../../test/support/contract-cli.js';
import { documentedPairs } from './coverage.js';
import { type DocumentedPair, type SuiteReport } from '../verdict/report.js';
import { prettyReport } from '../verdict/reporters/pretty-reporter.js';
import { allRules } from './rules/index.js';
import { runSuite, type SuiteOptions } from './run-suite.js';
import { shownReport } from '../verdict/shown-report.js';

/**
 * Coverage of the contract document by the rules: every request/response
 * pair dredd-transactions compiles from the document must be observed in a
 * run against the mock. Coverage counts what came back, not what the rules
 * claim: a pair a run does not reach shows as uncovered.
 */
const KEY = 'coverage-test-key';
const DOCUMENTED = ['listPets 200', 'listPets 401', 'createPet 201', 'createPet 400', 'createPet 401', 'getPet 200', 'getPet 401', 'getPet 404'];
const label = (pair: Pick<DocumentedPair, 'operation' | 'status'>) => `${pair.operation} ${pair.status}`;

let validator: ResponseValidator;
let pairs: DocumentedPair[];
const servers: ApiServer[] = [];

/** Runs the rules against a fresh mock (in process, over real HTTP). */
async function run(options: Partial<SuiteOptions> = {}): Promise<SuiteReport> {
  const server = await startApiServer({ apiKey: KEY });
  servers.push(server);
  const result = await runSuite({ baseUrl: server.url, apiKey: KEY, validator, ...options });
  if (!result.ok) throw new Error(result.error.message);
  return result.report;
}

beforeAll(async () => {
  validator = await createResponseValidator();
  pairs = await documentedPairs(validator);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('coverage of the documented pairs', () => {
  it('dredd-transactions compiles the 8 documented pairs of the three operations', () => {
    expect(pairs.map(label).sort()).toEqual([...DOCUMENTED].sort());
    expect(pairs.map((p) => `${p.method} ${p.status}`).sort()).toEqual(['GET 200', 'GET 200', 'GET 401', 'GET 401', 'GET 404', 'POST 201', 'POST 400', 'POST 401']);
  });

  describe('a full run against the mock', () => {
    let report: SuiteReport;
    beforeAll(async () => {
      report = await run();
    });

    it('covers every documented pair with at least one rule (8/8)', () => {
      expect(report.ok).toBe(true);
      expect(report.coverage.total).toBe(pairs.length);
      expect(report.coverage.total).toBe(8);
      const uncovered = report.coverage.pairs.filter((p) => p.rules.length === 0).map(label);
      expect(uncovered, 'documented pairs no rule covers').toEqual([]);
      expect(report.coverage.covered).toBe(report.coverage.total);
    });

    it('names as covering a pair only rules that got that status from that operation', () => {
      for (const pair of report.coverage.pairs) {
        for (const id of pair.rules) {
          const result = report.results.find((r) => r.id === id);
          const seen = result?.observed?.includes(`${pair.operation} ${pair.status}`) || result?.exchanges.some((e) => e.operation === pair.operation && e.response?.status === pair.status);
          expect(seen, `${id} for ${label(pair)}`).toBe(true);
        }
      }
    });

    it('reports a pair uncovered when the rules that reach it are left out', async () => {
      const notFound = report.coverage.pairs.find((p) => label(p) === 'getPet 404');
      expect(notFound?.rules.length).toBeGreaterThan(0);
      const without = await run({ rules: allRules.filter((r) => !notFound?.rules.includes(r.id)) });
      expect(without.coverage).toMatchObject({ covered: 7, total: 8 });
      expect(without.coverage.pairs.filter((p) => p.rules.length === 0).map(label)).toEqual(['getPet 404']);
    });
  });

  it('in read-only mode, createPet 201, 400 and 401 are reported uncovered (5/8): a read-only run sends no POST; coverage is observed, not declared', async () => {
    const report = await run({ readOnly: true });
    expect(report.ok).toBe(true);
    expect(report.coverage).toMatchObject({ covered: 5, total: 8 });
    expect(report.coverage.pairs.filter((p) => p.rules.length === 0).map(label).sort()).toEqual(['createPet 201', 'createPet 400', 'createPet 401']);
    // The rules that would cover them are there, skipped.
    for (const result of report.results.filter((r) => r.writes)) expect(result.status).toBe('skipped');
    const pretty = prettyReport(shownReport(report));
    expect(pretty).toContain('(dredd-transactions): 5/8');
    expect(pretty).toMatch(/createPet POST \/pets {9}201 {2}NOT COVERED/);
    expect(pretty).toMatch(/createPet POST \/pets {9}400 {2}NOT COVERED/);
  });
});
