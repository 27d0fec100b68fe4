import { PROFILE_VERSION, type AcceptedOr, type ProfileFile, type ProfileChoices, type ProfilePoint } from '../../shared/profile/profile.js';
import type { SilentEntry } from '../../verdict/report.js';
import { keyOf } from '../silent-log.js';
import { UNDECLARED_NAME_LENGTH } from '../allow-refusal.js';
import { profilePattern } from './profile-statuses.js';
import { errorAnswer, inconsistent, learned, oneError, oneOf, unlearned, listed, type Answers, type Learned } from './learned.js';
import { byField } from './learn-by-field.js';
import { petId } from './learn-pet-id.js';

/** Accepted (`201 (accepted)`, as the rule notes it), or one Error for every request of the point. */
function acceptedOr(point: ProfilePoint, answers: Answers): Learned<AcceptedOr> {
  if (answers.length !== 1) return inconsistent(answers);
  const answer = (answers[0] as Answers[number]).answer;
  return answer === '201 (accepted)' ? learned('accepted') : errorAnswer(point, answer);
}

const LEARN: { [P in ProfilePoint]: (answers: Answers) => Learned<ProfileChoices[P]> } = {
  'missing-key': (answers) => oneError('missing-key', answers),
  'wrong-key': (answers) => oneError('wrong-key', answers),
  challenge: (answers) => oneOf(answers, (a) => (profilePattern('challenge')?.test(a) ? a : undefined)),
  'body-size': bodySize,
  'empty-name': (answers) => acceptedOr('empty-name', answers),
  'control-characters': (answers) => acceptedOr('control-characters', answers),
  'taken-name': (answers) => acceptedOr('taken-name', answers),
  'chunked-body': (answers) => acceptedOr('chunked-body', answers),
  order: (answers) => oneOf(answers, (a) => (a === 'ascending by id' ? 'ascending' : a === 'descending by id' ? 'descending' : undefined)),
  'default-status': (answers) =>
    oneOf(answers, (a) => {
      if (a === 'left out') return 'none';
      const status = /^status "(available|pending|sold)"$/.exec(a)?.[1];
      return status as ProfileChoices['default-status'] | undefined;
    }),
  location: (answers) => oneOf(answers, (a) => (a === 'not sent' ? 'not-sent' : a.startsWith('sent ') ? 'sent' : undefined)),
  'missing-body': (answers) => oneError('missing-body', answers),
  'malformed-json': (answers) => oneError('malformed-json', answers),
  'body-not-object': (answers) => oneError('body-not-object', answers),
  'media-type': (answers) => oneError('media-type', answers),
  'missing-field': (answers) => byField('missing-field', answers, ['name', 'categoryId']),
  'invalid-value': (answers) => byField('invalid-value', answers, ['name', 'categoryId', 'status']),
  'unknown-id': (answers) => oneError('unknown-id', answers),
  'pet-id': petId,
  status,
  'unknown-query-parameter': (answers) => (answers.length === 1 && answers[0]?.answer === 'answered as without it' ? learned('ignored') : oneError('unknown-query-parameter', answers)),
  'name-length': nameLength,
  limit,
};

/**
 * The name length: the longest accepted, and the answer to the shortest
 * refused. Nothing refused: no limit, as far as the run went.
 */
function nameLength(answers: Answers): Learned<ProfileChoices['name-length']> {
  const accepted = answers.map((a) => /^accepted up to (\d+) /.exec(a.answer)?.[1]).find((n) => n !== undefined);
  const refused = answers.map((a) => /^the shortest name refused had (\d+) UTF-16 code units: (.*)$/.exec(a.answer)).find((m) => m !== null);
  if (!refused) return learned('unlimited');
  const answer = errorAnswer('name-length', refused[2] as string);
  if (!answer.ok) return answer;
  const max = accepted === undefined ? Number(refused[1]) - 1 : Number(accepted);
  // Under 1,000 only a declared limit (--allow-refusal): the mock keeps to the undeclared line.
  return max >= UNDECLARED_NAME_LENGTH ? learned({ max, refused: answer.value }) : unlearned(`refused names past ${max} characters, a declared limit under the ${UNDECLARED_NAME_LENGTH} the mock must accept`);
}

/** The largest body accepted and the answer one byte past it; past 1 MiB accepted, the mock cannot follow (it reads at most 1 MiB). */
function bodySize(answers: Answers): Learned<ProfileChoices['body-size']> {
  return oneOf(answers, (a) => {
    const match = /^accepted up to (\d+) bytes; \d+ bytes: (.*)$/.exec(a);
    const refused = match ? errorAnswer('body-size', match[2] as string) : undefined;
    return match && refused?.ok ? { max: Number(match[1]), refused: refused.value } : undefined;
  });
}

/** The default page's size (the interface: `limit` default 20): a page no larger may be the answer as without `limit`. */
const DEFAULT_PAGE = 20;

/**
 * A refused `limit`: the one Error its 4xx answers share, or ignored (a
 * page for a value below 1 or not an integer: answered as without it);
 * and past the maximum, a page larger than the default is clamped. A page
 * no larger past the maximum is clamped too when the rest were refused (a
 * catalogue of 20 or fewer shows no difference), ignored when they were.
 */
function limit(answers: Answers): Learned<ProfileChoices['limit']> {
  const pageSize = (a: Answers[number]) => Number(/^200 with (\d+) animals$/.exec(a.answer)?.[1] ?? Number.NaN);
  const pages = answers.filter((a) => a.answer.startsWith('200'));
  const errors = answers.filter((a) => !a.answer.startsWith('200'));
  const pastMaximum = (example: string) => {
    const value = /[?&]limit=(\d+)(?:&|'|$)/.exec(example)?.[1];
    return value !== undefined && BigInt(value) > 100n;
  };
  const clamped = pages.some((a) => pageSize(a) > DEFAULT_PAGE);
  if (errors.length === 0) return learned({ refused: 'ignored', 'above-maximum': clamped ? 'clamped' : 'refused' });
  if (pages.some((a) => !(pageSize(a) > DEFAULT_PAGE) && !pastMaximum(a.example))) return inconsistent(answers);
  const refused = oneError('limit', errors);
  return refused.ok ? learned({ refused: refused.value, 'above-maximum': pages.length > 0 ? 'clamped' : 'refused' }) : refused;
}

/** A refused `status`: the one Error, or ignored (every answer a page). */
function status(answers: Answers): Learned<ProfileChoices['status']> {
  return answers.every((a) => a.answer.startsWith('200')) ? learned('ignored') : oneError('status', answers);
}

/** Where a profile point is in the silent log: its own fixed point, or listPets' parameter's refused values. */
const logKey = (point: ProfilePoint): string => (point === 'limit' || point === 'status' ? keyOf({ kind: 'query-parameter', name: point, values: 'refused' }) : point);

/**
 * A profile of what a run observed where the interface is silent (its
 * silent log). A point the run did not reach, or where the target's
 * answers give no one choice the mock can serve, is left out, so the mock
 * keeps its own there, and `notes` says why.
 */
export function profileFromSilent(entries: readonly SilentEntry[], name: string): ProfileFile {
  const byKey = new Map(entries.map((entry) => [keyOf(entry.point), entry.answers]));
  const choices: Record<string, unknown> = {};
  const notes: Partial<Record<ProfilePoint, string>> = {};
  for (const point of Object.keys(LEARN) as ProfilePoint[]) {
    const answers = byKey.get(logKey(point));
    const outcome = answers ? (LEARN[point] as (a: Answers) => Learned<unknown>)(answers) : unlearned('not reached by this run (read-only, or its rules skipped)');
    if (outcome.ok) choices[point] = outcome.value;
    else notes[point] = `${outcome.why}; the mock keeps its own choice`;
  }
  return { version: PROFILE_VERSION, name, choices: choices as Partial<ProfileChoices>, ...(Object.keys(notes).length > 0 && { notes }) };
}
