import { questionOf } from '../../src/contract-tests/silent-log.js';
import type { DriftReport } from '../../src/verdict/drift-report.js';
import type { ProfileChoices, ProfilePoint } from '../../src/shared/profile/profile-points.js';
import { loadDefaultProfile } from '../../src/mock/core/profile/checked-profile.js';

/** The drift report's cause for a profile point: its silent point's question (`limit` and `status` are listPets' parameters'). */
export const causeOf = (point: ProfilePoint): string => questionOf(point === 'limit' || point === 'status' ? { kind: 'query-parameter', name: point, values: 'refused' } : point);

/** The points where two sets of choices differ. */
export const differingPoints = (a: ProfileChoices, b: ProfileChoices): ProfilePoint[] =>
  (Object.keys(a) as ProfilePoint[]).filter((point) => JSON.stringify(a[point]) !== JSON.stringify(b[point]));

/**
 * The changed points a drift group follows from: its cause's point when
 * it is a silent point's; else those whose Error code one side answered
 * under either set of choices (a case of another rule meeting that
 * condition), or what a changed order or Location makes of a page or a 201.
 */
export function pointsOf(group: DriftReport['groups'][number], changed: readonly ProfilePoint[], profile: ProfileChoices, other: ProfileChoices = loadDefaultProfile().profile.choices): ProfilePoint[] {
  const own = changed.find((point) => causeOf(point) === group.cause);
  if (own) return [own];
  // Words of the answers, each also without a trailing colon (`400 bad_json: silent, …`): a code may hold colons of its own.
  const answered = [...group.a.split(/\s/), ...group.b.split(/\s/)].flatMap((word) => [word, word.replace(/:$/, '')]);
  const codes = (point: ProfilePoint) => [profile, other].flatMap((choices) => JSON.stringify(choices[point]).match(/"code":"[^"]+"/g) ?? []).map((code) => code.slice(8, -1));
  const byCode = changed.filter((point) => codes(point).some((code) => answered.includes(code)));
  if (changed.includes('location') && /Location/.test(group.cause)) byCode.push('location');
  if (changed.includes('challenge') && /WWW-Authenticate/.test(group.cause)) byCode.push('challenge');
  // HEAD /pets/{petId} carries getPet's fields (method-head-*), and names no operation; nor does a GET of it sent under
  // another name in Host (it may reach another virtual host), whose path is written as sent (`/%70%65%74s/1`).
  if (changed.includes('deprecation') && /^(getPet|HEAD \/pets\/\S+|GET \/\S+) \d{3}: header (Deprecation|Sunset|Link)$/.test(group.cause)) byCode.push('deprecation');
  // Newest first, a page shows other animals: with or without a status, say.
  if (changed.includes('order') && group.cause.startsWith('listPets 200: body shape')) byCode.push('order');
  return byCode;
}

/** The changed points a drift report's groups name, and the groups that follow from none. */
export function namedPoints(groups: DriftReport['groups'], changed: readonly ProfilePoint[], profile: ProfileChoices): { named: ProfilePoint[]; unexplained: string[] } {
  const named = new Set<ProfilePoint>();
  const unexplained: string[] = [];
  for (const group of groups) {
    const points = pointsOf(group, changed, profile);
    if (points.length === 0) unexplained.push(`${group.cause}: A ${group.a}, B ${group.b}`);
    for (const point of points) named.add(point);
  }
  return { named: [...named].sort(), unexplained };
}
