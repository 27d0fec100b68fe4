import type fc from 'fast-check';
import { curlLine } from '../../verdict/curl-line.js';
import { ruleSeed, search } from '../generate/search.js';
import type { CaseVerdict } from '../generate/search.js';
import type { Probe, RuleContext, RuleOutcome } from '../types.js';
import type { RecordedExchange, Finding } from '../../verdict/exchange.js';
import type { FixedProfilePoint } from '../../shared/profile/profile-points.js';

/** What a failing generated case leaves for the report: its findings and the exchanges that show them. */
export interface CaseFailure {
  findings: Finding[];
  exchanges: RecordedExchange[];
}

export type Verdict = CaseVerdict<CaseFailure>;

/**
 * A case's verdict from its probes (the checks of every exchange) and the
 * rule's own findings. A case whose request got no answer is not shrunk:
 * each smaller case would wait out the time limit again.
 */
export function verdictOf(probes: readonly Probe[], more: readonly Finding[] = []): Verdict {
  const findings = [...probes.flatMap((p) => p.findings), ...more].filter((f) => f.level === 'error');
  if (findings.length === 0) return { ok: true };
  return { ok: false, failure: { findings, exchanges: probes.map((p) => p.exchange) }, final: probes.some((p) => p.exchange.networkError !== undefined) };
}

export interface SweepCase {
  label: string;
}

/**
 * Sends each case once (no random draws, no shrinking: each is already one
 * broken thing), judges its answer, records every failing one with its curl
 * line, and stops at the first case that gets no answer: a target that has
 * stopped answering would make each further case wait out the time limit.
 * With `plain`, a failing case's request as the harness always writes it
 * is sent too, judged beside it and shown before it (two curl lines: "this
 * got 401, that got 200").
 */
export async function sweep<C extends SweepCase>(
  context: RuleContext,
  cases: Iterable<C>,
  send: (c: C) => Promise<Probe | undefined>,
  judge: (c: C, probe: Probe, plain?: Probe) => Finding[],
  plain?: (c: C) => Promise<Probe> | undefined,
): Promise<Extract<RuleOutcome, { cases: number }>> {
  let sent = 0;
  for (const c of cases) {
    const probe = await send(c);
    if (!probe) continue;
    sent++;
    let verdict = verdictOf([probe], judge(c, probe));
    if (verdict.ok) continue;
    const contrast = verdict.final ? undefined : await plain?.(c);
    if (contrast) {
      verdict = verdictOf([contrast, probe], judge(c, probe, contrast));
      if (verdict.ok) continue;
    }
    recordFailure(context, verdict.failure, { case: c.label, tried: sent, shrinks: 0 });
    if (verdict.final) break;
  }
  return { cases: sent };
}

/** A finding of the rule's own about one exchange of a case. */
export const finding = (exchange: RecordedExchange, message: string, expected: string, path?: string, profilePoint?: FixedProfilePoint | false): Finding => ({
  level: 'error',
  message,
  expected,
  exchange,
  ...(path ? { path } : {}),
  ...(profilePoint ? { profilePoint } : {}),
});

export interface GeneratedSearch<T> {
  arbitrary: fc.Arbitrary<T>;
  examples?: readonly T[];
  runs: number;
  check: (value: T) => Promise<Verdict>;
  /** The case in words, for the report. */
  describe: (value: T) => string;
  shrinkBudget?: number;
}

/**
 * Runs a rule's search with the rule's own seed and keeps only the shrunk
 * failure (if any), with its curl lines and the seed that replays it.
 */
export async function searchAndRecord<T>(context: RuleContext, ruleId: string, options: GeneratedSearch<T>): Promise<Extract<RuleOutcome, { cases: number }>> {
  const result = await search({ ...options, seed: ruleSeed(context.seed, ruleId) });
  if (result.failed) recordFailure(context, result.failure, { case: options.describe(result.value), tried: result.found, shrinks: result.shrinks });
  return { cases: result.tried };
}

/** Records a failing case's exchanges and findings, each finding with how to replay the case. */
export function recordFailure(context: RuleContext, failure: CaseFailure, about: { case: string; tried: number; shrinks: number }): void {
  const reproduce = { curl: failure.exchanges.map((e) => curlLine(e.request)).join('\n'), seed: context.seed, ...about };
  for (const exchange of failure.exchanges) context.record({ exchange, findings: [] });
  for (const f of failure.findings) context.fail({ ...f, reproduce });
}
