import { inconsistent, learned, oneError, oneOf, type Answers, type Learned } from '../learn/learned.js';
import { orderNote, pageNote, repeatedNote } from '../learn/noted-answers.js';
import type { FilterChoice, IgnoredOr } from '../profile-choice-types.js';
import { profilePoint } from '../profile-point.js';
import { errorSchema, shown, wordOrErrorSchema } from './schema-parts.js';

const REFUSED = [400] as const;
/** The interface's default page (`limit` default 20) and its largest (maximum 100). */
const DEFAULT_PAGE = 20;
const MAXIMUM_PAGE = 100;

const orIgnored = (choice: IgnoredOr): string => (choice === 'ignored' ? 'Ignored: answered as without it' : shown(choice));

const order = profilePoint<'order', 'ascending' | 'descending'>({
  key: 'order',
  question: 'listPets: the order of results',
  learnedFrom: '`ascending by id` or `descending by id` (neither: left out)',
  about: 'by id',
  schema: { enum: ['ascending', 'descending'] },
  own: 'ascending',
  example: 'descending',
  inWords: (choice) => `By id, ${choice}`,
  learn: (answers) => oneOf(answers, orderNote.read),
  noted: 'fixed',
});

export interface LimitChoice {
  refused: IgnoredOr;
  'above-maximum': 'refused' | 'clamped';
}

const limit = profilePoint<'limit', LimitChoice, 'query-parameter'>({
  key: 'limit',
  question: 'listPets: a `limit` the document refuses',
  learnedFrom: 'the one Error of its refusals, or `ignored` when every refused value got a page (`200 with N animals`); a page larger than 20 to an integer past 100 → `above-maximum: clamped`',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['refused', 'above-maximum'],
    properties: {
      refused: {
        description: `The answer to a limit the document refuses (below 1, not an integer): an Error, or ignored (answered as without it: the default page of ${DEFAULT_PAGE}).`,
        ...wordOrErrorSchema('ignored', REFUSED, 'The answer to a limit that is not an integer, or out of range.'),
      },
      'above-maximum': { enum: ['refused', 'clamped'], description: `An integer past the maximum (${MAXIMUM_PAGE}): refused as above (an Error, or ignored), or clamped to ${MAXIMUM_PAGE}.` },
    },
  },
  own: { refused: { status: 400, code: 'invalid_parameter' }, 'above-maximum': 'refused' },
  example: { refused: { status: 400, code: 'bad_limit' }, 'above-maximum': 'clamped' },
  inWords: (choice) => `${orIgnored(choice.refused)}${choice['above-maximum'] === 'clamped' ? `; past ${MAXIMUM_PAGE}, a page of ${MAXIMUM_PAGE}` : `, past ${MAXIMUM_PAGE} too`}`,
  learn: learnLimit,
  noted: 'query-parameter',
});

/**
 * A refused `limit`: the one Error its 4xx answers share, or ignored (a
 * page for a value below 1 or not an integer: answered as without it);
 * and past the maximum, a page larger than the default is clamped. A page
 * no larger past the maximum is clamped too when the rest were refused (a
 * catalogue of 20 or fewer shows no difference), ignored when they were.
 */
function learnLimit(answers: Answers): Learned<LimitChoice> {
  const pageSize = (a: Answers[number]) => pageNote.read(a.answer) ?? Number.NaN;
  const pages = answers.filter((a) => a.answer.startsWith('200'));
  const errors = answers.filter((a) => !a.answer.startsWith('200'));
  const pastMaximum = (example: string) => {
    const value = /[?&]limit=(\d+)(?:&|'|$)/.exec(example)?.[1];
    return value !== undefined && BigInt(value) > BigInt(MAXIMUM_PAGE);
  };
  const clamped = pages.some((a) => pageSize(a) > DEFAULT_PAGE);
  if (errors.length === 0) return learned({ refused: 'ignored', 'above-maximum': clamped ? 'clamped' : 'refused' });
  if (pages.some((a) => !(pageSize(a) > DEFAULT_PAGE) && !pastMaximum(a.example))) return inconsistent(answers);
  const refused = oneError(REFUSED, errors);
  return refused.ok ? learned({ refused: refused.value, 'above-maximum': pages.length > 0 ? 'clamped' : 'refused' }) : refused;
}

const status = profilePoint<'status', FilterChoice, 'query-parameter'>({
  key: 'status',
  question: 'listPets: a `status` the document refuses',
  learnedFrom: 'the one Error of its refusals; or, when every refused value got a page, `empty` when each page was empty (the catalogue holding animals), `ignored` when none was',
  about: 'an Error, ignored (answered as without it: every status), or empty (a filter no animal matches)',
  schema: { oneOf: [{ const: 'ignored' }, { const: 'empty' }, errorSchema(REFUSED)] },
  own: { status: 400, code: 'invalid_parameter' },
  example: 'ignored',
  inWords: (choice) => (choice === 'empty' ? 'An empty page, as a filter no animal matches' : orIgnored(choice)),
  learn: learnStatus,
  noted: 'query-parameter',
});

/**
 * A refused `status`: the one Error of its refusals, or pages. An empty page
 * is a filter nothing matches; a page with animals, the value ignored. A
 * target holding no animal at all answers every page empty: the run cannot
 * tell that from `empty` (a run that writes has created some first).
 */
function learnStatus(answers: Answers): Learned<FilterChoice> {
  const sizes = answers.map((a) => pageNote.read(a.answer));
  if (sizes.some((size) => size === undefined)) return oneError(REFUSED, answers);
  if (sizes.every((size) => size === 0)) return learned('empty');
  return sizes.every((size) => (size as number) > 0) ? learned('ignored') : inconsistent(answers);
}

const REPEATED_IN_WORDS = { refused: 'Refused as the parameter\'s other refused values are (`limit`, `status`)', first: 'Read as its first value', last: 'Read as its last value' } as const;

const repeatedParameter = profilePoint<'repeated-parameter', 'refused' | 'first' | 'last'>({
  key: 'repeated-parameter',
  question: 'listPets: a documented query parameter given more than once (`?limit=1&limit=2`)',
  learnedFrom: '`list-repeated-limit` (`limit=1&limit=2`, with three animals or more listed): `the first value read` → first, `the last value read` → last, an Error or a page of neither size → refused',
  about: "refused as that parameter's values the document refuses are (the `limit` and `status` points), or read as its first or its last value",
  schema: { enum: ['refused', 'first', 'last'] },
  own: 'refused',
  example: 'last',
  inWords: (choice) => REPEATED_IN_WORDS[choice],
  learn: (answers) => oneOf(answers, repeatedNote.read),
  noted: 'fixed',
});

/** listPets' points, in the schema's order. */
export const LIST_PETS_POINTS = [order, limit, status, repeatedParameter] as const;
