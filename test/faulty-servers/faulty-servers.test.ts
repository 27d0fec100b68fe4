import { writeFileSync } from 'node:fs';
import { afterAll, describe, it } from 'vitest';
import { loadContract } from '../../src/document/load-contract.js';
import { createResponseValidator } from '../../src/document/response-validator.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { DEFECTS } from './all-defects.js';
import { FAULTY_SERVER_KEY, type Defect } from './defect.js';
import { startFaultyServer } from './faulty-server.js';
import { describeFinding } from '../../src/verdict/reporters/describe-finding.js';
import { runSuite } from '../../src/contract-tests/run-suite.js';
import { type SuiteReport } from '../../src/verdict/report.js';

/**
 * Proves the harness can fail: the full suite (every rule, writing ones
 * too) runs against the real mock, over real HTTP, once unmodified (it must
 * pass every contract rule) and once behind each defect of all-defects.ts (a
 * contract rule must fail, among them the ones the defect names).
 *
 * FAULTY_SERVERS_TABLE=<file> writes the table of docs/harness-proof.md ("Faulty servers") from this run.
 */

const contract = loadContract();
const catalogue = loadFixtureCatalogue(contract);
if (!catalogue.ok) throw new Error(catalogue.error);
const pets = catalogue.value.pets;
// Shared by every run: prism takes a moment to read the document.
const validator = createResponseValidator();

/** Starts a fresh server (a fresh store) behind the defect, runs the whole suite, closes the server. */
async function runAgainst(defect: Defect | undefined): Promise<SuiteReport> {
  const server = await startFaultyServer(defect, { contract, pets });
  try {
    const run = await runSuite({
      baseUrl: server.url,
      apiKey: FAULTY_SERVER_KEY,
      readOnly: false,
      validator: await validator,
      ...(defect?.timeoutMs === undefined ? {} : { timeoutMs: defect.timeoutMs }),
      ...(defect?.settleMs === undefined ? {} : { settleMs: defect.settleMs }),
    });
    if (!run.ok) throw new Error(`the suite did not run: ${run.error.kind}: ${run.error.message}`);
    return run.report;
  } finally {
    await server.close();
  }
}

const failedContractRules = (report: SuiteReport): string[] =>
  report.results.filter((r) => r.severity === 'contract' && r.status === 'failed').map((r) => r.id);

/** The replay lines the report prints for the failures: a user can paste one to see the defect. */
const replayLines = (report: SuiteReport): string[] =>
  report.results
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.findings.filter((f) => f.level === 'error'))
    .flatMap((f) => describeFinding(f).filter((line) => /^(replay: +| {9,})curl /.test(line)));

describe('the unmodified mock (control)', () => {
  // As the faulty servers' guard below: a whole suite, on cores the defects' suites share when the file runs whole.
  it('passes every contract rule', { timeout: 60_000 }, async ({ expect }) => {
    const report = await runAgainst(undefined);
    const contractRules = report.results.filter((r) => r.severity === 'contract');
    const failures = contractRules.filter((r) => r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason, findings: r.findings.map((f) => f.message) }));
    expect(failures).toEqual([]);
    expect(contractRules.length).toBeGreaterThan(0);
    expect(report.summary.contractFailed).toBe(0);
  });
});

const caught = new Map<string, string[]>();

describe.concurrent('faulty servers', () => {
  describe.each(DEFECTS.map((defect) => [defect.name, defect] as const))('%s', (_, defect) => {
    // A guard against a run that never ends, not a speed test: five whole suites (about 800 requests
    // each) run at once here, on two cores that other test files share, and a defect slower than the
    // harness's time limit makes every rule wait out its requests.
    it('fails a contract rule, with a curl line that replays the failure', { timeout: 60_000 }, async ({ expect, annotate }) => {
      const report = await runAgainst(defect);
      const failed = failedContractRules(report);
      caught.set(defect.name, failed);
      await annotate(`caught by ${failed.length ? failed.join(', ') : 'no contract rule'}`);
      expect(failed, `the harness let it through; it breaks: ${defect.breaks}`).not.toEqual([]);
      expect(failed, 'the contract rules meant to catch it').toEqual(expect.arrayContaining([...defect.caughtBy]));
      // `/v1/pet` too: list-unknown-path's GET /pet fails on an Error body that is wrong anywhere; any method: the method
      // rules send PUT, HEAD (`-I`) and others; and /v1/pets spelled another way RFC 3986 allows, from the origin
      // (`/./%761/x/../%70ets`, sent as written: --path-as-is), or in a form it does not call the same (`//v1/pets`,
      // `/V1/PETS`), as the vary-* rules send it.
      expect(replayLines(report)[0]).toMatch(/curl -sS -[iI] (-X [A-Z]+ )?(--path-as-is )?'http:\/\/127\.0\.0\.1:\d+\/(v1\/(pets?[/?']|\.{1,2}\/|[^']*(%[0-9a-fA-F]{2}|\/\.{1,2}\/))|(\.{1,2}\/|x\/|%[0-9a-fA-F]{2}|\/|V1\/)[^']*(pets|PETS|%[0-9a-fA-F]{2}))/);
      expect(report.ok).toBe(false);
    });
  });

  afterAll(() => {
    const file = process.env.FAULTY_SERVERS_TABLE;
    if (file) writeFileSync(file, table());
  });
});

/** The table of docs/harness-proof.md, "Faulty servers", from this run. */
function table(): string {
  const rows = DEFECTS.map((defect) => {
    const ids = caught.get(defect.name);
    const by = ids === undefined ? 'not run' : ids.length ? ids.map((id) => `\`${id}\``).join(', ') : '**not caught**';
    return `| ${defect.name.replaceAll('|', '\\|')} | ${defect.breaks.replaceAll('|', '\\|')} | ${by} |`;
  });
  const total = DEFECTS.length;
  const hits = DEFECTS.filter((defect) => (caught.get(defect.name) ?? []).length > 0).length;
  return [`Catch rate: ${hits}/${total}.`, '', '| Defect | Interface statement it breaks | Contract rules that caught it |', '|---|---|---|', ...rows, ''].join('\n');
}
