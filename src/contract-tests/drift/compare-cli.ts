import { baseUrlProblem } from '../base-url.js';
import type { SuiteOptions, SuiteRun } from '../run-suite.js';

/**
 * `--compare-with`: the drift run, shaped as a single run for the CLI. The
 * second target's wrong-target verdict becomes the run's (named as the
 * compared one), since a drift report against a wrong address says nothing.
 */
export async function runCompare(options: SuiteOptions, compare: { with: string; apiKey: string | undefined; failOnDrift: boolean; session?: SuiteOptions['session'] }): Promise<SuiteRun> {
  const compareWith = compare.with;
  const wrongUrl = baseUrlProblem(compareWith, '--compare-with');
  if (wrongUrl !== undefined) return { ok: false, error: { kind: 'usage', message: wrongUrl } };
  const { runDrift } = await import('./run-drift.js');
  const run = await runDrift({ ...options, compareWith: { baseUrl: compareWith.replace(/\/+$/, ''), apiKey: compare.apiKey ?? options.apiKey, session: compare.session }, failOnDrift: compare.failOnDrift });
  if (!run.ok) return run;
  const wrong = run.other.wrongTarget;
  const wrongTarget = run.report.wrongTarget ?? (wrong ? { ...wrong, message: `--compare-with: ${wrong.message}` } : null);
  return { ok: true, report: { ...run.report, wrongTarget, ...(run.other.session ? { comparedSession: run.other.session } : {}) } };
}
