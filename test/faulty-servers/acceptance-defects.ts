import { parse, stringify } from 'lossless-json';
import { viewWith } from './pet-view.js';
import type { Defect, ServerFetch } from './defect.js';
import { onCreateBody } from './conditional-input-defects.js';
import { errorResponse, hasKey, operationOf } from './http.js';

/**
 * Servers that refuse (or crash on, or change) NewPets the interface allows:
 * names of other scripts, marks and emoji, a status left out, one status,
 * media types written another way, members NewPet does not name, a body
 * limit far below any declared one. Each refusal is outside what a server
 * may refuse where the interface is silent (docs/harness-rules.md: "What a server may
 * refuse"), so the run must fail. The key is checked first (`hasKey` in
 * onCreateBody), so 401 still wins as in the mock.
 */

const ACCEPT = 'Endpoints > Add an animal: 201, Pet, for a valid NewPet (name: any string; status optional; limits on name length not shown); 400 only for missing fields or invalid values.';
const MEDIA = 'What the service does: requests use the media type application/json (RFC 9110 §8.3.1: case-insensitive, parameters allowed).';
const EXTRA = 'Resources > NewPet: members NewPet does not name are not forbidden; Errors: 400 for createPet, no 5xx.';
const ROUND_TRIP = ['create-generated-round-trip'];
const MEDIA_TYPES = ['create-accepts-json-media-types'];
const EXTRA_MEMBERS = ['create-extra-members'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const refused = (code: string, message: string) => errorResponse(400, code, message);

/** A 400 (or `answer`) for createPet bodies whose name matches `test`. */
const refusesNames = (test: (name: string) => boolean, answer = () => refused('invalid_name', 'name contains characters that are not allowed')) =>
  onCreateBody((body) => (isObject(body) && typeof body.name === 'string' && test(body.name) ? answer() : undefined));

/** Answers `answer` to createPet requests with the key whose Content-Type matches `test`, before the mock reads them. */
const onContentType =
  (test: (type: string) => boolean, answer: () => Response) =>
  (fetch: ServerFetch): ServerFetch =>
  async (request, env) =>
    operationOf(request) === 'createPet' && hasKey(request) && test(request.headers.get('content-type') ?? '') ? answer() : fetch(request, env);

const unsupported = (status = 400) => errorResponse(status, 'unsupported_content_type', 'Content-Type must be application/json');
const crash = (why: string) => errorResponse(500, 'internal_error', why);

/** Members other than NewPet's own. */
const extras = (body: unknown): string[] => (isObject(body) ? Object.keys(body).filter((key) => !['name', 'categoryId', 'status'].includes(key)) : []);

export const acceptanceDefects: Defect[] = [
  {
    name: 'names with emoji refused (400)',
    breaks: ACCEPT,
    wrap: refusesNames((name) => /\p{Extended_Pictographic}/u.test(name)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names with combining marks refused (400)',
    breaks: ACCEPT,
    wrap: refusesNames((name) => /\p{M}/u.test(name)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names with letters of a script other than Latin refused (400)',
    breaks: ACCEPT,
    wrap: refusesNames((name) => /(?!\p{Script=Latin})\p{L}/u.test(name)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'right-to-left names refused (400)',
    breaks: ACCEPT,
    wrap: refusesNames((name) => /[\p{Script=Hebrew}\p{Script=Arabic}\u200f]/u.test(name)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names with a zero-width joiner refused (400)',
    breaks: ACCEPT,
    wrap: refusesNames((name) => name.includes('\u200d')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names over 30 characters refused (400, an undeclared limit inside ordinary length)',
    breaks: `${ACCEPT} (Names of up to 100 code points are ordinary: no limit may refuse them.)`,
    wrap: refusesNames((name) => [...name].length > 30, () => refused('name_too_long', 'name must be at most 30 characters')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'emoji names refused with an Error blaming the category',
    breaks: `${ACCEPT} (A category refusal is open only for a category the target has not accepted.)`,
    wrap: refusesNames((name) => /\p{Extended_Pictographic}/u.test(name), () => refused('unknown_category', 'categoryId names no known category')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'status left out refused when categoryId is past 10 (400)',
    breaks: 'Resources > NewPet: status is not required (only name and categoryId are).',
    wrap: onCreateBody((body) => (isObject(body) && !('status' in body) && typeof body.categoryId === 'number' && body.categoryId > 10 ? refused('invalid_body', 'status is required') : undefined)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'status "sold" refused on create (400)',
    breaks: 'States and transitions: PetStatus has the values available, pending and sold; NewPet status is a PetStatus.',
    wrap: onCreateBody((body) => (isObject(body) && body.status === 'sold' ? refused('invalid_status', 'new animals cannot be sold') : undefined)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'bodies over 512 bytes refused with 413 (an undeclared limit far below any NewPet with a long ordinary name)',
    breaks: `${ACCEPT} (Size limits on request bodies: not shown; a NewPet of an ordinary name fits any declared limit.)`,
    wrap: onCreateBody((_, text) => (Buffer.byteLength(text) > 512 ? errorResponse(413, 'payload_too_large', 'the body is over 512 bytes') : undefined)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'categoryIds divisible by 100 stored as the next integer (one value in a hundred changed)',
    breaks: 'Endpoints > Add an animal: 201, Pet: the animal added, as sent (categoryId: integer, int64), with its assigned id.',
    catalogue: (pets) => viewWith(pets, { create: (pet) => pets.create(typeof pet.categoryId === 'number' && pet.categoryId % 100 === 0 ? { ...pet, categoryId: pet.categoryId + 1 } : pet) }),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'Content-Type with charset=utf-8 refused (400)',
    breaks: MEDIA,
    wrap: onContentType((type) => /charset/i.test(type), unsupported),
    caughtBy: MEDIA_TYPES,
  },
  {
    name: 'upper-case Application/JSON refused (400)',
    breaks: MEDIA,
    wrap: onContentType((type) => /^application\/json/.test(type) === false && /^application\/json/i.test(type), unsupported),
    caughtBy: MEDIA_TYPES,
  },
  {
    name: 'charset=UTF-8 (upper case) refused with 415, only "utf-8" known',
    breaks: MEDIA,
    wrap: onContentType((type) => /charset="?UTF-8/.test(type), () => unsupported(415)),
    caughtBy: MEDIA_TYPES,
  },
  {
    name: 'a media type with an empty parameter (application/json;) refused with 415',
    breaks: MEDIA,
    wrap: onContentType((type) => /;\s*$/.test(type), () => unsupported(415)),
    caughtBy: MEDIA_TYPES,
  },
  {
    name: 'createPet answers 500 to any member NewPet does not name',
    breaks: EXTRA,
    wrap: onCreateBody((body) => (extras(body).length > 0 ? crash('column does not exist') : undefined)),
    caughtBy: EXTRA_MEMBERS,
  },
  {
    name: 'createPet answers 500 to an extra member only when it is id',
    breaks: EXTRA,
    wrap: onCreateBody((body) => (extras(body).includes('id') ? crash('duplicate key value violates unique constraint "pets_pkey"') : undefined)),
    caughtBy: EXTRA_MEMBERS,
  },
  {
    name: 'createPet answers 500 to a member named __proto__',
    breaks: EXTRA,
    wrap: onCreateBody((body) => (extras(body).includes('__proto__') ? crash('Cannot assign to read only property') : undefined)),
    caughtBy: EXTRA_MEMBERS,
  },
  {
    name: 'an extra member with a null value refused with 422',
    breaks: `${EXTRA} (The interface's refusal of a body is 400.)`,
    wrap: onCreateBody((body) => (isObject(body) && extras(body).some((key) => body[key] === null) ? errorResponse(422, 'unprocessable', 'null is not allowed') : undefined)),
    caughtBy: EXTRA_MEMBERS,
  },
  {
    name: 'a member named twice stored as both values joined (name "a,b")',
    breaks: 'Endpoints > Add an animal: 201, Pet: the animal added, as sent; of a member named twice a server reads one, or refuses the body (RFC 8259 §4: what software does then is unpredictable, not a third value).',
    // As a server that reads the body into a multi-map and joins a repeated member's values, as it does a repeated query parameter's.
    wrap: onCreateBody((body, text) => {
      if (!isObject(body)) return undefined;
      let joined = false;
      const read = parse(text, null, { onDuplicateKey: ({ oldValue, newValue }) => ((joined = true), `${String(oldValue)},${String(newValue)}`) });
      return joined ? stringify(read) : undefined;
    }),
    caughtBy: ['create-silent-choices'],
  },
];
