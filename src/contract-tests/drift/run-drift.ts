import { createResponseValidator } from '../../document/response-validator.js';
import { drawSeed } from '../generate/search.js';
import { runSuite, type SuiteOptions } from '../run-suite.js';
import { type SuiteReport } from '../../verdict/report.js';
import type { RuleResult } from '../../verdict/report.js';
import type { RecordedExchange } from '../../verdict/exchange.js';
import { compareRule, type Difference } from './compare-rule.js';
import type { DriftReport } from '../../verdict/drift-report.js';
import { repeatedRequests } from './flapping.js';
import { groupDrift } from './group-drift.js';
import { setApartNotCopied } from './not-copied.js';
import { learnedDifferences } from './learned-drift.js';
import { pairRecorder, type SideRecording } from './pair-recorder.js';

export interface DriftOptions extends SuiteOptions {
  /** The second target (`--compare-with`) and its own key (`--compare-api-key`, else the first's). */
  compareWith: { baseUrl: string; apiKey: string; session?: SuiteOptions['session'] };
  /** Drift fails the run (--fail-on-drift). */
  failOnDrift?: boolean;
}

export type DriftRun =
  | { ok: true; report: SuiteReport & { drift: DriftReport }; other: SuiteReport }
  | { ok: false; error: { kind: 'usage' | 'unreachable' | 'session'; message: string } };

/**
 * Runs the suite against two targets side by side with one seed, so every
 * rule sends both the same cases, then compares them rule by rule, in the
 * order each rule sent its requests. Two suites rather than one run
 * alternating requests: each rule's cases follow its own answers (a create
 * then a read of what it created), so each target keeps its own state and
 * ids, and the pairing is by the n-th request of a rule, which the seed
 * fixes. A rule that failed on either target is reported as the failure it
 * is, not compared.
 */
export async function runDrift(options: DriftOptions): Promise<DriftRun> {
  const seed = options.seed ?? drawSeed();
  let validator;
  try {
    validator = options.validator ?? (await createResponseValidator(options.documentPath));
  } catch (error) {
    return { ok: false, error: { kind: 'usage', message: (error as Error).message } };
  }
  const [ra, rb] = [pairRecorder(), pairRecorder()];
  const [runA, runB] = await Promise.all([
    runSuite({ ...options, seed, validator, tap: ra.tap }),
    runSuite({ ...options, baseUrl: options.compareWith.baseUrl, apiKey: options.compareWith.apiKey, session: options.compareWith.session, seed, validator, tap: rb.tap }),
  ]);
  if (!runA.ok) return runA;
  if (!runB.ok) return { ok: false, error: { ...runB.error, message: `--compare-with: ${runB.error.message}` } };
  const started = performance.now();
  const drift = { ...(await compareRuns(runA.report, runB.report, ra.recording, rb.recording)), failsRun: options.failOnDrift ?? false };
  const report = { ...runA.report, ms: runA.report.ms + (performance.now() - started), drift, ok: runA.report.ok && runB.report.ok };
  return { ok: true, report, other: runB.report };
}

async function compareRuns(a: SuiteReport, b: SuiteReport, ra: SideRecording, rb: SideRecording): Promise<Omit<DriftReport, 'failsRun'>> {
  const differences: Difference[] = [];
  const notCompared: DriftReport['notCompared'] = [];
  let compared = 0;
  for (const result of a.results) {
    const other = b.results.find((r) => r.id === result.id) as RuleResult;
    const skip = notComparedReason(result, other);
    if (skip === null) continue;
    if (skip) {
      notCompared.push({ id: result.id, reason: skip });
      continue;
    }
    const [ta, tb] = [ra.rules.get(result.id), rb.rules.get(result.id)];
    if (!ta || !tb) continue;
    const comparison = await compareRule(ta, tb, { a: a.target.baseUrl, b: b.target.baseUrl });
    compared += comparison.compared;
    differences.push(...comparison.differences);
    if (comparison.outOfStep) notCompared.push({ id: result.id, reason: `compared up to where the cases parted after a difference: ${comparison.outOfStep}` });
  }
  differences.push(...learnedDifferences(a, b, new Set(differences.filter((d) => d.kind === 'silent').map((d) => d.cause))));
  const tools = async (recording: SideRecording) => ({ send: recording.send(), repeats: repeatedRequests(await exchangesOf(recording)) });
  const grouped = await groupDrift(differences, { a: await tools(ra), b: await tools(rb) });
  const { groups, notCopied } = setApartNotCopied(grouped.groups);
  return {
    a: a.target.baseUrl,
    b: b.target.baseUrl,
    groups,
    notCopied,
    inconsistent: grouped.inconsistent,
    failedOnB: b.results.filter((r) => r.status === 'failed').map((r) => ({ id: r.id, message: r.findings.find((f) => f.level === 'error')?.message ?? 'failed' })),
    notCompared,
    compared,
  };
}

/** Why a rule is not compared; null when neither target ran it (nothing to say), undefined when it is compared. */
function notComparedReason(a: RuleResult, b: RuleResult): string | null | undefined {
  if (a.status === 'skipped' && b.status === 'skipped') return null;
  if (a.status === 'failed' || b.status === 'failed') return `failed on ${a.status === 'failed' ? (b.status === 'failed' ? 'both' : 'A') : 'B'}: a contract failure, reported as such`;
  if (a.status === 'skipped' || b.status === 'skipped') return `skipped on ${a.status === 'skipped' ? 'A' : 'B'} only: ${a.reason ?? b.reason}`;
  return undefined;
}

async function exchangesOf(recording: SideRecording): Promise<RecordedExchange[]> {
  const settled = await Promise.allSettled([...recording.rules.values()].flatMap((traffic) => traffic.probes.map((p) => p.probed)));
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.exchange] : []));
}
