import { DEFAULT_API_KEY } from '../shared/default-api-key.js';
import { jsonReportObject } from '../verdict/reporters/json-reporter.js';
import { JSON_ANSWER_BODY_SHOWN } from '../verdict/shown-body.js';
import { shownReport } from '../verdict/shown-report.js';
import type { FetchFunction } from './fetch-transport.js';
import { runSuite, type SuiteOptions } from './run-suite.js';

/** What `runContract` checks: a server at a base URL, or any fetch function (a mock engine, a team's own MSW handlers). */
export type ContractTarget = { baseUrl: string } | { fetch: FetchFunction; baseUrl?: string };

/** The harness's options, as the command's flags of the same names. */
export type RunContractOptions = Partial<Pick<SuiteOptions, 'apiKey' | 'seed' | 'examples' | 'only' | 'skip' | 'readOnly' | 'timeoutMs' | 'allowRefusal' | 'maxBodyBytes'>>;

/**
 * A contract run's report, as `--reporter json` writes it: `ok`, `summary`,
 * `results` (each rule's status and findings), `causes`, `seed`, and
 * `wrongTarget` (null, or the line saying every request got one status,
 * such as a wrong key's 401). Only a run's: the JSON reporter also writes
 * proxy mode's report, which runContract never returns, so its fields are
 * read without narrowing on `kind`.
 */
export type ContractReport = Extract<ReturnType<typeof jsonReportObject>, { kind: 'contract-run' }>;

/**
 * Runs the contract-test harness programmatically and resolves to its
 * report. With `{ fetch }` every request goes to that function: its base
 * URL defaults to `http://localhost/v1`, and the API key to the mock's
 * default, `animal-store-dev-key`. A target that cannot be reached, or
 * options the harness refuses, reject with an Error saying why; a target
 * that answers, a wrong key's 401s included, resolves with its report
 * (`ok: false`, and `wrongTarget` set when every request got one status).
 */
export async function runContract(target: ContractTarget, options: RunContractOptions = {}): Promise<ContractReport> {
  const viaFetch = 'fetch' in target;
  const baseUrl = target.baseUrl ?? 'http://localhost/v1';
  const run = await runSuite({ ...options, apiKey: options.apiKey ?? DEFAULT_API_KEY, baseUrl, fetch: viaFetch ? target.fetch : undefined });
  if (!run.ok) throw new Error(`runContract: ${run.error.message}`);
  // Through JSON, as the file would be: a plain object, no bigint or shared reference.
  return JSON.parse(JSON.stringify(jsonReportObject(shownReport(run.report, { answerChars: JSON_ANSWER_BODY_SHOWN })))) as ContractReport;
}
