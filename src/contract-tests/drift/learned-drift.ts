import { PROFILE_POINTS } from '../../shared/profile/profile-points.js';
import type { ProfilePointSpec } from '../../shared/profile/profile-point.js';
import type { SuiteReport } from '../../verdict/report.js';
import { keyOf, questionOf } from '../silent-log.js';
import { profileFromSilent } from '../profile/profile-from-silent.js';
import type { Difference } from './compare-rule.js';

/** A profile point's question, as the drift report names its cause. */
const questionOfPoint = (point: ProfilePointSpec): string =>
  point.noted === 'query-parameter' ? questionOf({ kind: 'query-parameter', name: point.key, values: 'refused' }) : questionOf(point.key as Parameters<typeof questionOf>[0]);

/**
 * The profile points where what each run learned differs, each once, where
 * no compared case showed it already: a point met only by a rule that
 * failed on a side (a name limit under the harness's line fails the rule
 * that finds it) is not compared case by case, yet both runs saw the
 * target's choice there. Each difference is the choice in words, with the
 * first request that showed each side's answers.
 */
export function learnedDifferences(a: SuiteReport, b: SuiteReport, shown: ReadonlySet<string>): Difference[] {
  const [learnedA, learnedB] = [profileFromSilent(a.silent, 'a').choices as Record<string, unknown>, profileFromSilent(b.silent, 'b').choices as Record<string, unknown>];
  const differences: Difference[] = [];
  for (const point of PROFILE_POINTS as readonly ProfilePointSpec[]) {
    const cause = questionOfPoint(point);
    const [ca, cb] = [learnedA[point.key], learnedB[point.key]];
    if (shown.has(cause) || ca === undefined || cb === undefined || JSON.stringify(ca) === JSON.stringify(cb)) continue;
    const inWords = point.inWords as (choice: unknown) => string;
    differences.push({ kind: 'silent', cause, a: inWords(ca), b: inWords(cb), notes: { a: exampleOf(a, point), b: exampleOf(b, point) } });
  }
  return differences;
}

/** The first request the run noted at a point, as a curl line. */
function exampleOf(report: SuiteReport, point: ProfilePointSpec): string {
  const key = point.noted === 'query-parameter' ? keyOf({ kind: 'query-parameter', name: point.key, values: 'refused' }) : point.key;
  return report.silent.find((entry) => keyOf(entry.point) === key)?.answers[0]?.example ?? '';
}
