import { oneError } from '../learn/learned.js';
import { learnPetId, type PetIdChoice } from '../learn/learn-pet-id.js';
import { PET_ID_FORMS, type ProfiledError } from '../profile-choice-types.js';
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

/** getPet's points, in the schema's order. */
export const GET_PET_POINTS = [unknownId, petId] as const;
