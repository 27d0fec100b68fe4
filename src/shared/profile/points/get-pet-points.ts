import { inconsistent, learned, listed, oneError, unlearned, type Answers, type Learned } from '../learn/learned.js';
import { deprecationNote } from '../learn/noted-answers.js';
import { learnPetId, type PetIdChoice } from '../learn/learn-pet-id.js';
import { PET_ID_FORMS, type DeprecationChoice, type ProfiledError } from '../profile-choice-types.js';
import { profilePoint } from '../profile-point.js';
import { errorSchema, shown } from './schema-parts.js';

const unknownId = profilePoint<'unknown-id', ProfiledError>({
  key: 'unknown-id',
  question: 'getPet: an id no animal has',
  learnedFrom: 'the `404 code` of `get-unknown-id`',
  schema: errorSchema([404]),
  own: { status: 404, code: 'pet_not_found' },
  example: { status: 404, code: 'no_such_pet' },
  inWords: shown,
  learn: (answers) => oneError([404], answers),
  noted: 'fixed',
});

const PET_ID_STATUSES = [400, 404] as const;
const base = errorSchema(PET_ID_STATUSES) as { properties: Record<string, unknown> };

const petId = profilePoint<'pet-id', PetIdChoice>({
  key: 'pet-id',
  question: 'getPet: a `petId` that is not an int64, and the other ways of writing an id read as that id',
  learnedFrom: 'the one `STATUS code` of the forms refused (a 200 to a text such as ` 5` is a reading, not this point\'s answer); `reads`: the forms of a known id (`get-id-path-forms`) the target answered with that animal, noted `200 (read: plus-sign)` or `… (refused: plus-sign)`. A form both read and refused leaves `reads` out; `past-int64`: the one answer to integers past the int64 range (noted `(past int64)`), when it differs',
  about: "which ways of writing an id are read as that id (`reads`; left out: leading zeros only, the mock's own reading)",
  schema: {
    ...base,
    properties: {
      ...base.properties,
      reads: {
        type: 'array',
        uniqueItems: true,
        description: 'The ways of writing an id read as that id: leading-zeros (007), plus-sign (+7), leading-space (%207), decimal-zero (7.0), exponent (7e0), hexadecimal (0x7). Any other form gets the Error above.',
        items: { enum: [...PET_ID_FORMS] },
      },
      'past-int64': errorSchema(PET_ID_STATUSES, 'The answer to an integer past the int64 range (9223372036854775808), when it is not the Error above: a server reading it as an id no animal has answers it as an unknown id. Left out: the Error above.'),
    },
  },
  own: { status: 404, code: 'pet_not_found', reads: ['leading-zeros'] },
  example: { status: 400, code: 'bad_pet_id', reads: ['plus-sign', 'leading-space', 'decimal-zero', 'exponent', 'hexadecimal'] },
  inWords: (choice) => `${shown(choice)}; read as the id: ${choice.reads?.length ? choice.reads.join(', ') : 'plain digits only'}${choice['past-int64'] ? `; past int64: ${shown(choice['past-int64'])}` : ''}`,
  learn: (answers) => learnPetId(PET_ID_STATUSES, answers),
  noted: 'fixed',
});

const deprecation = profilePoint<'deprecation', DeprecationChoice>({
  key: 'deprecation',
  question: 'getPet: which answers carry its deprecation signals, and whether `Link` names the replacement',
  learnedFrom: '`get-deprecation-headers`: an animal\'s 200, an unknown id\'s 404 and a 401, each noted with its signals (`404: Deprecation, Sunset, Link`); `Deprecation` on each → every, on the 200 alone → success, on none → none; `link` from the 200',
  about: '`Deprecation` (RFC 9745) and `Sunset` (RFC 8594) on every answer, errors included, on 2xx answers only, or on none; `Link` to the replacement (`rel="successor-version"`) with them or not',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['answers', 'link'],
    properties: {
      answers: { enum: ['every', 'success', 'none'], description: 'Which answers carry Deprecation and Sunset: every one (a client may only ever see its 401s), 2xx only, or none.' },
      link: { enum: ['sent', 'not-sent'], description: 'Whether `Link: <…/pets>; rel="successor-version"` (RFC 5829) goes with them.' },
    },
  },
  own: { answers: 'every', link: 'sent' },
  example: { answers: 'success', link: 'not-sent' },
  inWords: (choice) =>
    choice.answers === 'none' ? 'Not signalled' : `On ${choice.answers === 'every' ? 'every answer, errors included' : '2xx answers only'}; ${choice.link === 'sent' ? 'with' : 'without'} a \`Link\` to the replacement`,
  learn: learnDeprecation,
  noted: 'fixed',
});

/**
 * Where getPet's deprecation signals go, from the answers the rule noted:
 * `Deprecation` on every one, on the 2xx ones alone, or on none; `Link`
 * as the 2xx answers carry it (or, with no signals at all, not sent).
 */
function learnDeprecation(answers: Answers): Learned<DeprecationChoice> {
  const notes = answers.map((a) => deprecationNote.read(a.answer));
  if (notes.some((note) => note === undefined)) return unlearned(`answered ${listed(answers)}, which the mock cannot read`);
  const read = notes as Array<NonNullable<(typeof notes)[number]>>;
  const success = read.filter((note) => note.success);
  const others = read.filter((note) => !note.success);
  if (success.length === 0) return unlearned(`no 2xx answer was seen (${listed(answers)})`);
  const on = (group: typeof read) => (group.every((note) => note.deprecation) ? true : group.every((note) => !note.deprecation) ? false : undefined);
  const [onSuccess, onOthers] = [on(success), on(others)];
  const links = new Set(success.map((note) => note.link));
  if (onSuccess === undefined || onOthers === undefined || links.size > 1) return inconsistent(answers);
  const link = links.has(true) ? 'sent' : 'not-sent';
  if (!onSuccess) return onOthers ? unlearned(`signalled on errors, not on 2xx answers (${listed(answers)}), which the mock cannot serve`) : learned({ answers: 'none', link });
  return learned({ answers: onOthers || others.length === 0 ? 'every' : 'success', link });
}

/** getPet's points, in the schema's order. */
export const GET_PET_POINTS = [unknownId, petId, deprecation] as const;
