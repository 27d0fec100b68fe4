import { errorAnswer, learned, unlearned, type Answers, type Learned } from '../learn/learned.js';
import { nameLengthNote } from '../learn/noted-answers.js';
import type { ProfiledError } from '../profile-choice-types.js';
import { profilePoint } from '../profile-point.js';
import { MOCK_BODY_BYTES, ORDINARY_NAME_LENGTH, UNDECLARED_NAME_LENGTH } from '../undeclared-limits.js';
import { acceptedOrRefused } from './accepted-or-refused.js';
import { errorSchema, limitSchema, shown } from './schema-parts.js';

const REFUSED = [400] as const;

type NameLength = 'unlimited' | { max: number; refused: ProfiledError };

const nameLength = profilePoint<'name-length', NameLength>({
  key: 'name-length',
  question: 'createPet: the longest `name` accepted',
  learnedFrom: 'the longest name accepted and the answer to the shortest refused for its length (the boundary between them searched with plain-letter names); nothing refused → `unlimited` (as far as the run went)',
  about: 'in characters (Unicode code points, as JSON Schema\'s maxLength counts them), and the answer past it',
  schema: {
    oneOf: [
      { const: 'unlimited' },
      limitSchema(
        {
          minimum: 1,
          maximum: MOCK_BODY_BYTES,
          description: `The longest name accepted, at most ${MOCK_BODY_BYTES} (a request body is at most 1 MiB). Under ${UNDECLARED_NAME_LENGTH} it is a limit the contract harness fails a server for unless it is declared (limits on names are not shown), and under ${ORDINARY_NAME_LENGTH} even then: the mock copies it all the same, so an app meets it on the mock as on the server it was learned from.`,
        },
        errorSchema(REFUSED, 'The answer to a longer name.'),
      ),
    ],
  },
  own: 'unlimited',
  example: { max: 1000, refused: { status: 400, code: 'name_too_long' } },
  inWords: (limit) => (limit === 'unlimited' ? 'Any length (within the 1 MiB body)' : `${limit.max} characters (code points); a longer one gets ${shown(limit.refused)}`),
  learn: learnNameLength,
  noted: 'fixed',
});

/**
 * The name length: the longest accepted, and the answer to the shortest
 * refused for its length (the harness's boundary probe has found both, one
 * code point apart, when it could). Nothing refused: no limit, as far as
 * the run went.
 */
function learnNameLength(answers: Answers): Learned<NameLength> {
  const accepted = answers.map((a) => nameLengthNote.readAccepted(a.answer)).find((n) => n !== undefined);
  const refused = answers.map((a) => nameLengthNote.readRefused(a.answer)).find((r) => r !== undefined);
  if (!refused) return learned('unlimited');
  const answer = errorAnswer(REFUSED, refused.answer);
  if (!answer.ok) return answer;
  const max = accepted ?? refused.length - 1;
  return max >= 1 ? learned({ max, refused: answer.value }) : unlearned(`refused names of ${refused.length} code points: no name length the mock can accept`);
}

/** How the probe of names notes its answers. */
export const SILENT_CHOICES = '`create-silent-choices`: `201 (accepted)` → accepted, else the one `STATUS code`';

/** A name the mock accepts and a server may refuse with 400. */
const refusableName = <const Key extends string>(key: Key, question: string, refusal: string, example: ProfiledError, learnedFrom = SILENT_CHOICES) =>
  acceptedOrRefused({ key, question, learnedFrom, statuses: REFUSED, refusal, about: 'accepted, or refused with an Error', example });

const emptyName = refusableName('empty-name', 'createPet: an empty `name`', 'The answer to an empty name.', { status: 400, code: 'name_empty' });
const controlCharacters = refusableName('control-characters', 'createPet: a `name` with a control character (C0, DEL or C1)', 'The answer to such a name.', { status: 400, code: 'name_has_control' });
const takenName = refusableName('taken-name', 'createPet: a `name` an animal of the session already has', 'The answer to a name already taken.', { status: 400, code: 'name_in_use' }, `${SILENT_CHOICES} (a taken name is sent twice: the second answer counts)`);

/** createPet's points about the name, in the schema's order. */
export const CREATE_PET_NAME_POINTS = [nameLength, emptyName, controlCharacters, takenName] as const;

