import type { ProfileFile } from '../../shared/profile/profile.js';
import { PROFILE_POINTS } from '../../shared/profile/profile-points.js';
import type { Learning, SuiteReport } from '../../verdict/report.js';
import { learnedFailures } from './learned-failures.js';

/**
 * A learning run's report: what it learned, and which failures are the
 * target's choices written into the profile. A learning run is run to find
 * those choices out, so they do not fail it (`ok`); any other failure does.
 */
export function withLearning(report: SuiteReport, file: string, profile: ProfileFile): SuiteReport {
  const failures = learnedFailures(report.results, profile.choices);
  const learning: Learning = {
    file,
    learned: Object.keys(profile.choices),
    unlearned: Object.keys(profile.notes ?? {}),
    learnedFailures: failures.filter((f) => f.explained).map(({ id, points }) => ({ id, points })),
    otherFailures: failures.filter((f) => !f.explained).map((f) => f.id),
  };
  return { ...report, learning, ok: report.ok || (learning.otherFailures.length === 0 && report.wrongTarget === null) };
}

/** The end of a learning run, in words: where the profile went, what it learned and left, and what failed only on what it learned. */
export function learningLines(learning: Learning): string[] {
  const { file, learned, unlearned, learnedFailures: explained, otherFailures } = learning;
  return [
    `profile written to ${file}`,
    `  learned ${learned.length} of ${PROFILE_POINTS.length} points${unlearned.length > 0 ? `; left to the mock's own choice, with the reason in the file's notes: ${unlearned.join(', ')}` : ''}`,
    ...(explained.length > 0 ? [`  failed only on the target's choices, written into the profile (learned, not failed): ${explained.map((f) => `${f.id} (${f.points.join(', ')})`).join('; ')}`] : []),
    ...(otherFailures.length > 0 ? [`  failed otherwise: ${otherFailures.join(', ')}`] : []),
  ];
}
