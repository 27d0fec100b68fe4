import { PROFILE_VERSION, type ProfileFile, type ProfileChoices, type ProfiledError, type ProfilePoint } from '../../shared/profile/profile.js';
import type { SilentEntry } from '../types.js';
import { keyOf } from '../silent-log.js';
import { UNDECLARED_NAME_LENGTH } from '../allow-refusal.js';
import { profileStatuses } from './profile-statuses.js';

type Answers = SilentEntry['answers'];
/** A point's choice, or why the run could not learn one (the mock then keeps its own). */
type Learned<T> = { ok: true; value: T } | { ok: false; why: string };

const learned = <T>(value: T): Learned<T> => ({ ok: true, value });
const unlearned = (why: string): Learned<never> => ({ ok: false, why });

/** The target's answers, as a note lists them: `400 bad_json (3), 400 empty_body`. */
const listed = (answers: Answers): string => answers.map((a) => (a.count > 1 ? `${a.answer} (${a.count})` : a.answer)).join(', ');
const inconsistent = (answers: Answers): Learned<never> => unlearned(`answered in more than one way (${listed(answers)}): no one choice to follow`);

/** `400 bad_json` → an Error answer the mock can serve at `point`, or why not. */
function errorAnswer(point: ProfilePoint, answer: string): Learned<ProfiledError> {
  const match = /^(\d{3}) ([A-Za-z][A-Za-z0-9_.:-]{0,63})$/.exec(answer);
  if (!match) return unlearned(`answered ${answer}, not an Error with a code the mock can send`);
  const status = Number(match[1]);
  const allowed = profileStatuses(point);
  if (!allowed.includes(status)) return unlearned(`answered ${answer}: the mock answers only ${allowed.join(' or ')} there, as the contract allows`);
  return learned({ status, code: match[2] as string });
}

/** One Error answer for every request of the point. */
function oneError(point: ProfilePoint, answers: Answers): Learned<ProfiledError> {
  return answers.length === 1 ? errorAnswer(point, (answers[0] as Answers[number]).answer) : inconsistent(answers);
}

/** One answer of a few known phrasings for every request of the point. */
function oneOf<T>(answers: Answers, read: (answer: string) => T | undefined): Learned<T> {
  if (answers.length !== 1) return inconsistent(answers);
  const value = read((answers[0] as Answers[number]).answer);
  return value === undefined ? unlearned(`answered ${listed(answers)}, which the mock cannot serve`) : learned(value);
}

const LEARN: { [P in ProfilePoint]: (answers: Answers) => Learned<ProfileChoices[P]> } = {
  'missing-key': (answers) => oneError('missing-key', answers),
  'wrong-key': (answers) => oneError('wrong-key', answers),
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
  'missing-field': (answers) => oneError('missing-field', answers),
  'invalid-value': (answers) => oneError('invalid-value', answers),
  'unknown-id': (answers) => oneError('unknown-id', answers),
  // A 200 is a form the target reads as an id (`007`, `+7`): a reading, not the answer to a petId that is no id.
  'pet-id': (answers) => {
    const refused = answers.filter((a) => !a.answer.startsWith('200'));
    return refused.length > 0 ? oneError('pet-id', refused) : unlearned(`read every such petId as an id (${listed(answers)})`);
  },
  status: (answers) => oneError('status', answers),
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

/**
 * A refused `limit`: the one Error its 4xx answers share, and whether past
 * the maximum the target answered a page instead (clamped). A page for any
 * other refused value (`limit=abc` ignored) the mock cannot serve.
 */
function limit(answers: Answers): Learned<ProfileChoices['limit']> {
  const pages = answers.filter((a) => a.answer.startsWith('200'));
  const errors = answers.filter((a) => !a.answer.startsWith('200'));
  const pastMaximum = (example: string) => {
    const value = /[?&]limit=(\d+)(?:&|'|$)/.exec(example)?.[1];
    return value !== undefined && BigInt(value) > 100n;
  };
  if (pages.some((a) => !pastMaximum(a.example))) return unlearned(`answered a page to a \`limit\` that is no integer past 100 (${listed(pages)}): the mock refuses those`);
  if (errors.length === 0) return unlearned(`answered every refused \`limit\` with a page (${listed(pages)}): the mock refuses one below 1 or not an integer`);
  const refused = oneError('limit', errors);
  return refused.ok ? learned({ refused: refused.value, 'above-maximum': pages.length > 0 ? 'clamped' : 'refused' }) : refused;
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
