import { codePoints } from '../../shared/code-points.js';
import type { ProfileChoices } from '../../shared/profile/profile-points.js';
import type { Finding, RecordedExchange } from '../../verdict/exchange.js';
import type { RuleResult } from '../../verdict/report.js';
import { answerOf } from '../silent-log.js';

/** A failed rule, and whether every one of its failures is a choice the learned profile holds. */
export interface LearnedFailure {
  id: string;
  /** The points whose learned choices explain each of its failures; empty when one is not explained. */
  points: string[];
  explained: boolean;
}

/**
 * Whether a learned choice explains a finding: the target did what the
 * profile now says it does. Only findings a rule marks with their point
 * (`profilePoint`) can be; each point says how here.
 */
const EXPLAINS: { [P in keyof ProfileChoices]?: (choice: ProfileChoices[P], exchange: RecordedExchange) => boolean } = {
  // A valid name refused past the learned limit, with the learned answer.
  'name-length': (choice, exchange) => {
    if (choice === 'unlimited') return false;
    const name = nameOf(exchange.request.body);
    return name !== undefined && codePoints(name) > choice.max && answerOf(exchange) === `${choice.refused.status} ${choice.refused.code}`;
  },
};

/**
 * The run's failed rules, each with whether the choices written into the
 * profile explain all of its failures: a learning run (`--write-profile`)
 * exists to record such choices, so those are learned, not failed.
 */
export function learnedFailures(results: readonly RuleResult[], choices: Partial<ProfileChoices>): LearnedFailure[] {
  return results
    .filter((result) => result.status === 'failed')
    .map((result) => {
      const errors = result.findings.filter((finding) => finding.level === 'error');
      const points = errors.map((finding) => explainingPoint(finding, choices));
      const explained = errors.length > 0 && points.every((point) => point !== undefined);
      return { id: result.id, points: explained ? [...new Set(points as string[])] : [], explained };
    });
}

function explainingPoint(finding: Finding, choices: Partial<ProfileChoices>): string | undefined {
  const point = finding.profilePoint;
  if (point === undefined || finding.exchange === undefined) return undefined;
  const choice = choices[point];
  const explains = EXPLAINS[point] as ((choice: unknown, exchange: RecordedExchange) => boolean) | undefined;
  return choice !== undefined && explains?.(choice, finding.exchange) === true ? point : undefined;
}

function nameOf(body: string | undefined): string | undefined {
  try {
    const name = (JSON.parse(body ?? '') as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
