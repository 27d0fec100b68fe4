import type { ErrorObject } from 'ajv';
import { clip, profiledError, type ErrorBody } from '../../core/errors.js';
import { PET_FIELDS } from '../../core/catalogue/pet.js';
import type { NewPetField } from '../../../shared/profile/profile-choice-types.js';
import type { ProfileChoices } from '../../../shared/profile/profile-points.js';
import { codePoints } from '../../../shared/code-points.js';

/** NewPet's fields in the document's order: a body wrong in several gets the answer of the first. */
const FIELD_ORDER: readonly NewPetField[] = ['name', 'categoryId', 'status'];

/** Unicode's control characters (C0, DEL, C1), as the contract harness counts them. */
const CONTROL = /\p{Cc}/u;

/** The field a schema error is about: the one `required` misses, or the member its path starts at. */
function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String((error.params as { missingProperty?: unknown }).missingProperty);
  return error.instancePath.split('/')[1] ?? '';
}

/**
 * The profile's answer to a NewPet the schema refused: missing a field
 * or with a wrong value, one Error for every field or one per field
 * (`fields`), and an integer past int64 its own (`past-int64`) when the
 * profile names one. The interface fixes only the status (400) and the
 * Error's shape, so a server may tell each field apart by its code.
 */
export function fieldRefusal(choices: ProfileChoices, errors: readonly ErrorObject[], message: string): ErrorBody {
  const rank = (e: ErrorObject) => {
    const at = FIELD_ORDER.indexOf(fieldOf(e) as NewPetField);
    // A field's absence before its value; a member the schema does not name last.
    return (at === -1 ? FIELD_ORDER.length : at) * 2 + (e.keyword === 'required' ? 0 : 1);
  };
  const first = [...errors].sort((a, b) => rank(a) - rank(b))[0];
  if (!first) return profiledError(choices['invalid-value'], message);
  const field = fieldOf(first) as NewPetField;
  if (first.keyword === 'required') {
    const missing = choices['missing-field'];
    return profiledError(missing.fields?.[field as 'name' | 'categoryId'] ?? missing, message);
  }
  const invalid = choices['invalid-value'];
  const pastInt64 = first.keyword === 'format' && (first.params as { format?: unknown }).format === 'int64' ? invalid['past-int64'] : undefined;
  return profiledError(pastInt64 ?? invalid.fields?.[field] ?? invalid, message);
}

/** The members a NewPet names: a Pet's, less the id the service assigns. */
const NEW_PET_MEMBERS: ReadonlySet<string> = new Set(PET_FIELDS.filter((field) => field !== 'id'));

/**
 * The profile's answer to a NewPet with a member it does not name (a
 * client's `id` among them), when the profile refuses one: the document
 * does not forbid them, and the mock's own choice is to keep none of them.
 */
export function memberRefusal(choices: ProfileChoices, newPet: object): ErrorBody | undefined {
  const refused = choices['extra-member'];
  if (refused === 'accepted') return undefined;
  const member = Object.keys(newPet).find((name) => !NEW_PET_MEMBERS.has(name));
  return member === undefined ? undefined : profiledError(refused, `${JSON.stringify(clip(member))} is not a member of NewPet: send only name, categoryId and status`);
}

/**
 * The profile's answer to a name the schema allows but the profile
 * refuses: empty, with a control character, or past the longest accepted
 * (counted in code points, as JSON Schema's maxLength counts them). The
 * interface shows no limit on names: each is a choice a server may make.
 */
export function nameRefusal(choices: ProfileChoices, name: string): ErrorBody | undefined {
  const empty = choices['empty-name'];
  if (name === '' && empty !== 'accepted') return profiledError(empty, 'name must not be empty');
  const control = choices['control-characters'];
  if (control !== 'accepted' && CONTROL.test(name)) return profiledError(control, 'name must not contain control characters');
  const limit = choices['name-length'];
  if (limit !== 'unlimited' && name.length > limit.max && codePoints(name) > limit.max) {
    return profiledError(limit.refused, `name must be at most ${limit.max} characters (code points), got ${codePoints(name)}`);
  }
  return undefined;
}
