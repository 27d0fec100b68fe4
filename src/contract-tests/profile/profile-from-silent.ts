import type { Answers, Learned } from '../../shared/profile/learn/learned.js';
import { unlearned } from '../../shared/profile/learn/learned.js';
import { PROFILE_VERSION, type ProfileFile } from '../../shared/profile/profile.js';
import { PROFILE_POINTS, type ProfilePoint } from '../../shared/profile/profile-points.js';
import type { ProfilePointSpec } from '../../shared/profile/profile-point.js';
import type { SilentEntry } from '../../verdict/report.js';
import { keyOf } from '../silent-log.js';

/** Where a point is in the silent log: its own key, or listPets' query parameter's refused values. */
const logKey = (point: ProfilePointSpec): string => (point.noted === 'query-parameter' ? keyOf({ kind: 'query-parameter', name: point.key, values: 'refused' }) : point.key);

/**
 * A profile of what a run observed where the interface is silent (its
 * silent log), each point learned as its entry in profile-points.ts says.
 * A point the run did not reach, or where the target's answers give no one
 * choice the mock can serve, is left out, so the mock keeps its own there,
 * and `notes` says why.
 */
export function profileFromSilent(entries: readonly SilentEntry[], name: string): ProfileFile {
  const byKey = new Map(entries.map((entry) => [keyOf(entry.point), entry.answers]));
  const choices: Record<string, unknown> = {};
  const notes: Partial<Record<ProfilePoint, string>> = {};
  for (const point of PROFILE_POINTS as readonly ProfilePointSpec[]) {
    const answers = byKey.get(logKey(point));
    const outcome: Learned<unknown> = answers ? (point.learn as (a: Answers) => Learned<unknown>)(answers) : unlearned('not reached by this run (read-only, or its rules skipped)');
    if (outcome.ok) choices[point.key] = outcome.value;
    else notes[point.key as ProfilePoint] = `${outcome.why}; the mock keeps its own choice`;
  }
  return { version: PROFILE_VERSION, name, choices: choices as ProfileFile['choices'], ...(Object.keys(notes).length > 0 && { notes }) };
}
