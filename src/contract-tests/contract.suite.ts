import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadContract } from '../document/load-contract.js';
import { loadFixtureCatalogue } from '../mock/core/fixtures/load-catalogue.js';
import { createLogger } from '../mock/logger.js';
import { startMockServer, type RunningMockServer } from '../mock/http/server.js';
import { openMemoryStore } from '../../test/support/memory-store.js';
import { describeFinding } from '../verdict/reporters/describe-finding.js';
import { OPERATION_ORDER } from '../verdict/reporters/excerpt.js';
import { allRules } from './rules/index.js';
import { runSuite } from './run-suite.js';
import { type SuiteReport } from '../verdict/report.js';

/**
 * The contract rules as a vitest project: one test per rule, with the CLI's
 * verdicts (both call runSuite). Configure with CONTRACT_BASE_URL,
 * CONTRACT_API_KEY, CONTRACT_READ_ONLY=1, CONTRACT_SEED and
 * CONTRACT_EXAMPLES; with no base URL, the mock is started on a free port
 * and checked. A failure names the seed that replays it.
 */
const env = process.env;
let report: SuiteReport;
let mock: RunningMockServer | undefined;

beforeAll(async () => {
  let baseUrl = env.CONTRACT_BASE_URL;
  let apiKey = env.CONTRACT_API_KEY;
  if (!baseUrl) {
    const contract = loadContract();
    const catalogue = loadFixtureCatalogue(contract);
    if (!catalogue.ok) throw new Error(catalogue.error);
    apiKey = 'contract-suite-key';
    mock = await startMockServer({
      port: 0,
      apiKeys: [apiKey],
      logger: createLogger({ format: 'json', level: 'warn', destination: new Writable({ write: (_chunk, _encoding, done) => done() }) }),
      contract,
      ...(await openMemoryStore(contract, { pets: catalogue.value.pets })),
    });
    baseUrl = mock.url;
  }
  if (!apiKey) throw new Error('set CONTRACT_API_KEY with CONTRACT_BASE_URL');
  // runSuite's defaults are the CLI's, so both give the same verdicts.
  const number = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));
  const run = await runSuite({ baseUrl, apiKey, readOnly: env.CONTRACT_READ_ONLY === '1' || env.CONTRACT_READ_ONLY === 'true', seed: number(env.CONTRACT_SEED), examples: number(env.CONTRACT_EXAMPLES) });
  if (!run.ok) throw new Error(run.error.message);
  report = run.report;
});

afterAll(async () => {
  await mock?.close();
});

for (const operation of OPERATION_ORDER) {
  describe(operation, () => {
    for (const rule of allRules.filter((r) => r.operation === operation)) {
      it(`${rule.id}: ${rule.title}`, (context) => {
        const result = report.results.find((r) => r.id === rule.id);
        if (!result) throw new Error(`no result for ${rule.id}`);
        for (const warning of result.findings.filter((f) => f.level === 'warning')) context.annotate(describeFinding(warning).join('\n'), 'warning');
        // A skip is an explicit result with its reason, never a silent pass.
        if (result.status === 'skipped') context.skip(result.reason);
        if (result.status === 'failed') {
          const failures = result.findings.filter((f) => f.level === 'error').map((f) => describeFinding(f).join('\n'));
          throw new Error(`${rule.severity} rule failed (${rule.statement.section}: ${rule.statement.text}); seed ${report.seed} (CONTRACT_SEED=${report.seed} replays it)\n\n${failures.join('\n\n')}`);
        }
      });
    }
  });
}
