import { present, type ReferencePet } from './reference-catalogue.js';
import { error, type Answer } from './reference-http.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * How a petId (percent-decoded) is written, by variant:
 * - `plain`: a decimal integer, optional `-`, leading zeros allowed.
 * - `lenient-sign-strict-zeros`: leading spaces and one `+` allowed, no
 *   leading zero (a lone `0` is the number); a negative one plain `-` and no
 *   leading zero. Another reading of "petId is an integer" than the plain
 *   one and the mock's (the interface does not say how one is written in a path).
 */
export type PetIdSyntax = 'plain' | 'lenient-sign-strict-zeros';

const SYNTAX: Record<PetIdSyntax, RegExp> = {
  plain: /^-?[0-9]+$/,
  'lenient-sign-strict-zeros': /^(?: *\+?(?:0|[1-9][0-9]*)|-[1-9][0-9]*)$/,
};

const notAnId = (): Answer => error(400, 'bad_pet_id', 'petId must be a decimal integer.');

/** The reference server's getPet: a petId in `syntax` within int64 (else 400 `bad_pet_id`), then the animal or 404 `no_such_pet`. */
export function getPet(pets: Map<number, ReferencePet>, rawId: string, syntax: PetIdSyntax): Answer {
  let text: string;
  try {
    text = decodeURIComponent(rawId);
  } catch {
    return notAnId();
  }
  if (!SYNTAX[syntax].test(text)) return notAnId();
  const id = BigInt(text.replace(/^ *\+?/, ''));
  if (id < INT64_MIN || id > INT64_MAX) return error(400, 'bad_pet_id', 'petId must be within the int64 range.');
  const pet = id >= BigInt(Number.MIN_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER) ? pets.get(Number(id)) : undefined;
  if (pet === undefined) return error(404, 'no_such_pet', `No animal has the id ${id}.`);
  return { status: 200, body: present(pet) };
}
