import { errorAnswer, learned, oneError, oneOf, unlearned, type Answers } from '../learn/learned.js';
import { learnByField } from '../learn/learn-by-field.js';
import { AS_WITHOUT_IT, bodySizeNote, duplicateMemberNote, MEMBER_ECHOED } from '../learn/noted-answers.js';
import type { AcceptedOr, FieldErrors, IgnoredOr, ProfiledError } from '../profile-choice-types.js';
import { profilePoint, type JsonSchema } from '../profile-point.js';
import { MOCK_BODY_BYTES, UNDECLARED_BODY_BYTES } from '../undeclared-limits.js';
import { acceptedOrRefused } from './accepted-or-refused.js';
import { SILENT_CHOICES } from './create-pet-name-points.js';
import { errorSchema, limitSchema, shown, wordOrErrorSchema } from './schema-parts.js';

const REFUSED = [400] as const;

type BodySize = { max: number; refused: ProfiledError };

const bodySize = profilePoint<'body-size', BodySize>({
  key: 'body-size',
  question: 'createPet: the largest body accepted',
  learnedFrom: '`create-body-size-limit`\'s search between 8,192 bytes and 1 MiB: the largest body accepted and the one `STATUS code` of the smallest refused (400 or 413); every size accepted, past 1 MiB as well, leaves it out (the mock reads at most 1 MiB)',
  about: 'in bytes, and the answer past it (the mock reads at most 1 MiB: its own limit)',
  schema: limitSchema(
    {
      minimum: UNDECLARED_BODY_BYTES,
      maximum: MOCK_BODY_BYTES,
      description: `The largest body accepted: at least ${UNDECLARED_BODY_BYTES}, as a server refusing a smaller valid body breaks the contract harness's line (size limits are not shown), and at most ${MOCK_BODY_BYTES} (1 MiB), the most the mock reads.`,
    },
    // RFC 9110 §15.5.14: 413 Content Too Large; the interface allows 400 too.
    errorSchema([400, 413], 'The answer to a larger body.'),
  ),
  own: { max: MOCK_BODY_BYTES, refused: { status: 413, code: 'payload_too_large' } },
  example: { max: 65536, refused: { status: 400, code: 'body_too_big' } },
  inWords: (size) => `${size.max.toLocaleString('en-US')} bytes; a larger one gets ${shown(size.refused)}`,
  // Past 1 MiB accepted, the mock cannot follow (it reads at most 1 MiB): no phrasing reads as a choice.
  learn: (answers) =>
    oneOf(answers, (answer) => {
      const noted = bodySizeNote.readRefused(answer);
      const refused = noted ? errorAnswer([400, 413], noted.answer) : undefined;
      return noted && refused?.ok ? { max: noted.max, refused: refused.value } : undefined;
    }),
  noted: 'fixed',
});

const chunkedBody = acceptedOrRefused({
  key: 'chunked-body',
  question: 'createPet: a body sent chunked, without `Content-Length`',
  learnedFrom: SILENT_CHOICES,
  statuses: [411],
  refusal: 'The answer to a chunked body.',
  about: 'accepted, or refused with 411 Length Required (RFC 9112 §6.3)',
  example: { status: 411, code: 'length_required' },
});

// The document gives NewPet no `additionalProperties: false`, and the interface lists 400 for "invalid values" only:
// ignoring a member and refusing what a server does not know are both defensible.
const refusableMember = acceptedOrRefused({
  key: 'extra-member',
  question: 'createPet: a NewPet with a member it does not name (`nickname`, `tags`, a client `id`, …)',
  learnedFrom: '`create-extra-members`, six NewPets with one such member each: `201 (accepted)` → accepted, else the one `STATUS code`; a member given back in the Pet is not learned (the mock keeps only the members NewPet names)',
  statuses: REFUSED,
  refusal: 'The answer to such a body.',
  about: 'accepted (the member neither stored nor given back), or refused with an Error',
  example: { status: 400, code: 'unknown_member' },
});
const extraMember = {
  ...refusableMember,
  inWords: (choice: AcceptedOr) => (choice === 'accepted' ? 'Accepted; the member neither stored nor given back' : refusableMember.inWords(choice)),
  learn: (answers: Answers) => (answers.some((a) => a.answer === MEMBER_ECHOED) ? unlearned('gave the member back in the Pet: the mock keeps only the members NewPet names') : refusableMember.learn(answers)),
};

/** Which of a member named twice a NewPet holds, or the body's refusal. */
export type DuplicateMember = 'last-wins' | 'first-wins' | ProfiledError;

// RFC 8259 §4: the names within an object SHOULD be unique; where one repeats, what software does is unpredictable:
// JSON.parse keeps the last member, other parsers the first, strict ones refuse the text.
const duplicateMember = profilePoint<'duplicate-member', DuplicateMember>({
  key: 'duplicate-member',
  question: 'createPet: a NewPet with a member named twice (`{"name":"a","categoryId":1,"name":"b"}`)',
  learnedFrom: '`create-silent-choices`\' NewPet with `name` twice: `201 (the last member)` → last-wins, `201 (the first member)` → first-wins, else the one `STATUS code`',
  about: 'the last of the two read (as JSON.parse reads it), the first, or the body refused with an Error (RFC 8259 §4: the names within an object SHOULD be unique)',
  schema: { oneOf: [{ const: 'last-wins' }, { const: 'first-wins' }, errorSchema(REFUSED, 'The answer to such a body.')] },
  own: 'last-wins',
  example: 'first-wins',
  inWords: (choice) => (choice === 'last-wins' ? 'The last member read' : choice === 'first-wins' ? 'The first member read' : `Refused: ${shown(choice)}`),
  learn: (answers) => (answers.length === 1 && duplicateMemberNote.read((answers[0] as Answers[number]).answer) !== undefined ? oneOf(answers, duplicateMemberNote.read) : oneError(REFUSED, answers)),
  noted: 'fixed',
});

/** A body the mock refuses with one Error, whose code a server chooses. */
const refusedBody = <const Key extends string>(key: Key, question: string, own: ProfiledError, example: ProfiledError, statuses: readonly number[] = REFUSED) =>
  profilePoint<Key, ProfiledError>({ key, question, learnedFrom: 'the one `STATUS code` every such request got', schema: errorSchema(statuses), own, example, inWords: shown, learn: (answers) => oneError(statuses, answers), noted: 'fixed' });

const missingBody = refusedBody('missing-body', 'createPet: an empty body', { status: 400, code: 'missing_body' }, { status: 400, code: 'empty_body' });
const malformedJson = refusedBody('malformed-json', 'createPet: a body that is not JSON, or is nested more than 512 levels deep', { status: 400, code: 'malformed_json' }, { status: 400, code: 'bad_json' });
const bodyNotObject = refusedBody('body-not-object', 'createPet: JSON that is not an object (null, an array, a string, a number, true)', { status: 400, code: 'invalid_body' }, { status: 400, code: 'not_an_object' });
// RFC 9110 §15.5.16: 415 Unsupported Media Type; the interface allows 400 too.
const mediaType = refusedBody('media-type', 'createPet: a NewPet not sent as `application/json`', { status: 400, code: 'unsupported_content_type' }, { status: 415, code: 'unsupported_media_type' }, [400, 415]);

// RFC 9110 §8.4: a server MAY answer 415 to a content coding it does not accept (§15.5.16); the interface allows 400 too.
const CODING_REFUSED = [400, 415] as const;

const contentCoding = profilePoint<'content-coding', IgnoredOr>({
  key: 'content-coding',
  question: 'createPet: a NewPet under a content coding the server cannot undo (`Content-Encoding: x-unknown`, the JSON as it is)',
  learnedFrom: '`create-unknown-content-coding`: `answered as without it` (201) → ignored, else the one `STATUS code`',
  about: 'ignored (the body read as it is, whatever its Content-Encoding names: the mock decompresses none), or refused with an Error; `identity` is never refused',
  schema: wordOrErrorSchema('ignored', CODING_REFUSED, 'Refused with this answer.'),
  own: { status: 400, code: 'unsupported_content_encoding' },
  example: 'ignored',
  inWords: (choice) => (choice === 'ignored' ? 'Ignored: the body read as it is' : `Refused: ${shown(choice)}`),
  learn: (answers) => (answers.length === 1 && answers[0]?.answer === AS_WITHOUT_IT ? learned('ignored') : oneError(CODING_REFUSED, answers)),
  noted: 'fixed',
});

/** One Error for every field, then the fields with their own. */
const byFieldInWords = (choice: FieldErrors & { 'past-int64'?: ProfiledError }): string =>
  [shown(choice), ...Object.entries(choice.fields ?? {}).map(([field, error]) => `\`${field}\`: ${shown(error)}`), ...(choice['past-int64'] ? [`past int64: ${shown(choice['past-int64'])}`] : [])].join('; ');

/** An Error for every field, and `fields`, the Error of each field described, where it is not that one. */
function fieldErrorsSchema(fields: Record<string, string>, fieldsDescription: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const base = errorSchema(REFUSED) as { properties: Record<string, JsonSchema> };
  const own = Object.fromEntries(Object.entries(fields).map(([field, description]) => [field, errorSchema(REFUSED, description)]));
  return { ...base, properties: { ...base.properties, fields: { type: 'object', additionalProperties: false, description: fieldsDescription, properties: own }, ...extra } };
}

const missingField = profilePoint<'missing-field', FieldErrors<'name' | 'categoryId'>>({
  key: 'missing-field',
  question: 'createPet: a NewPet without a field it requires (and nothing else wrong)',
  learnedFrom: '`create-generated-rejects`\' bodies without a required field, noted by field (`400 missing_name (name)`): the `400 code` most fields got, and under `fields` each field that got another',
  about: 'one Error for every field, or one per field under `fields`',
  schema: fieldErrorsSchema({ name: 'name missing.', categoryId: 'categoryId missing.' }, 'The Error for one missing field, where it is not the one above.'),
  own: { status: 400, code: 'invalid_body' },
  example: { status: 400, code: 'field_required', fields: { categoryId: { status: 400, code: 'category_required' } } },
  inWords: byFieldInWords,
  learn: (answers) => learnByField(REFUSED, answers, ['name', 'categoryId']),
  noted: 'fixed',
});

const invalidValue = profilePoint<'invalid-value', FieldErrors & { 'past-int64'?: ProfiledError }>({
  key: 'invalid-value',
  question: 'createPet: a NewPet with a field of the wrong type or out of range',
  learnedFrom: '`create-generated-rejects`\' bodies with one field broken, noted by field: the `400 code` most fields got, under `fields` each field that got another, and an integer past int64 under `past-int64` when it got another than its field',
  about: 'one Error for every field, or one per field under `fields`, and for an integer past int64 under `past-int64`',
  schema: fieldErrorsSchema({ name: 'A wrong name.', categoryId: 'A wrong categoryId.', status: 'A wrong status.' }, 'The Error for a wrong value of one field, where it is not the one above.', {
    'past-int64': errorSchema(REFUSED, "An integer field (categoryId) past the int64 range, where it is not the field's Error."),
  }),
  own: { status: 400, code: 'invalid_body' },
  example: { status: 400, code: 'bad_value', fields: { status: { status: 400, code: 'bad_status_value' } }, 'past-int64': { status: 400, code: 'out_of_range' } },
  inWords: byFieldInWords,
  learn: (answers) => learnByField(REFUSED, answers, ['name', 'categoryId', 'status']),
  noted: 'fixed',
});

/** createPet's points about the body, in the schema's order. */
export const CREATE_PET_BODY_POINTS = [bodySize, chunkedBody, extraMember, duplicateMember, missingBody, malformedJson, bodyNotObject, mediaType, contentCoding, missingField, invalidValue] as const;
