import { exactInteger, INT64_MIN } from '../../src/shared/exact-json/int64.js';
import type { NewPet } from '../../src/mock/core/catalogue/pet.js';
import type { OperationId } from '../../src/verdict/exchange.js';
import type { Defect } from './defect.js';
import { afterMock, errorResponse, operationOf, respond } from './http.js';
import { viewWith, type PetView } from './pet-view.js';

/**
 * Servers that hold int64 as JavaScript (or a double, a 32-bit or an
 * unsigned column) would: every value within ±(2^53−1) is kept, so the
 * fixtures and the fixed rules see nothing; only integers past 2^53 (valid
 * int64: the interface says `categoryId` and `petId` are int64) are
 * refused, changed or written another way. Answers are changed as text:
 * reading them with JSON.parse would itself round what the defect keeps.
 */

const AS_SENT = 'Resources and their fields > Pet / NewPet: categoryId is an integer (int64); 201, Pet: the animal added, as sent.';
const REFUSED = 'Endpoints > Add an animal: 400 only when the body is missing required fields or contains invalid values; any int64 categoryId is valid.';
const GET_INT64 = 'Endpoints > Get an animal: petId is an integer (int64); 200 when the animal exists, 404 when it could not be found.';
const ROUND_TRIP = ['create-int64-round-trip'];

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const past2to53 = (value: bigint) => value > SAFE || value < -SAFE;

/** A catalogue that changes each categoryId past 2^53 before it is stored: the 201, getPet and the listing all show the change. */
const categoryStoredAs =
  (change: (categoryId: bigint) => bigint) =>
  (pets: PetView): PetView =>
    viewWith(pets, {
      create: (pet: NewPet) => pets.create(typeof pet.categoryId === 'bigint' ? { ...pet, categoryId: exactInteger(change(pet.categoryId)) } : pet),
    });

/** The nearest double, as a server parsing into one stores it. */
const asDouble = (value: bigint) => BigInt(Number(value));

/** Each `"categoryId":<digits>` past 2^53 in an answer's text, rewritten as `write` says. */
const categoryTextAs = (operations: readonly OperationId[], write: (digits: string) => string) =>
  afterMock(
    (operation, response) => operation !== undefined && operations.includes(operation) && response.status < 300,
    async (response) => respond(response, (await response.text()).replace(/"categoryId":(-?\d{16,})/g, (whole, digits: string) => (past2to53(BigInt(digits)) ? `"categoryId":${write(digits)}` : whole))),
  );
const EVERY_ANSWER: readonly OperationId[] = ['createPet', 'getPet', 'listPets'];

/** A createPet body holding an integer literal past 2^53. */
const bigLiteral = async (request: Request) => operationOf(request) === 'createPet' && [...(await request.clone().text()).matchAll(/-?\d{16,}/g)].some(([digits]) => past2to53(BigInt(digits)));

/** A getPet of an id past 2^53. */
const bigPetId = (request: Request) => {
  const id = /\/pets\/(-?\d+)$/.exec(new URL(request.url).pathname)?.[1];
  return operationOf(request) === 'getPet' && id !== undefined && past2to53(BigInt(id));
};

export const int64Defects: Defect[] = [
  {
    name: 'int64: categoryId past 2^53 stored as a double (rounded)',
    breaks: AS_SENT,
    catalogue: categoryStoredAs(asDouble),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: categoryId past 2^53 clamped to ±(2^53−1)',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((value) => (value > SAFE ? SAFE : -SAFE)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: categoryId past 2^53 truncated to its low 32 bits',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((value) => BigInt.asIntN(32, value)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: negative categoryIds past 2^53 stored unsigned (two\'s complement read as uint64)',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((value) => BigInt.asUintN(64, value)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: categoryId 2^63−1 comes back as −2^63 (a double cast back to int64 overflows)',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((value) => (asDouble(value) >= 2n ** 63n ? INT64_MIN : value)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: categoryId past 2^53 answered as a string',
    breaks: AS_SENT,
    wrap: categoryTextAs(EVERY_ANSWER, (digits) => `"${digits}"`),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: categoryId past 2^53 written as a double in exponent form (9.223372036854776e+18)',
    breaks: AS_SENT,
    wrap: categoryTextAs(EVERY_ANSWER, (digits) => Number(digits).toExponential()),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: the listing rounds categoryIds past 2^53 (createPet and getPet exact)',
    breaks: 'Endpoints > List animals: 200, Pets: the animals of the catalogue, as they were added (categoryId int64).',
    wrap: categoryTextAs(['listPets'], (digits) => String(asDouble(BigInt(digits)))),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: createPet\'s 201 rounds categoryIds past 2^53 (stored exactly)',
    breaks: AS_SENT,
    wrap: categoryTextAs(['createPet'], (digits) => String(asDouble(BigInt(digits)))),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: createPet refuses a categoryId past 2^53 with 400',
    breaks: REFUSED,
    wrap: (fetch) => async (request, env) =>
      (await bigLiteral(request)) ? errorResponse(400, 'invalid_body', 'categoryId must be an integer from -9007199254740991 to 9007199254740991') : fetch(request, env),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'int64: getPet answers 400 for a petId past 2^53',
    breaks: GET_INT64,
    wrap: (fetch) => async (request, env) => (bigPetId(request) ? errorResponse(400, 'bad_pet_id', 'petId must be at most 9007199254740991') : fetch(request, env)),
    caughtBy: ['get-generated-ids'],
  },
  {
    name: 'int64: getPet answers 500 for a petId past 2^53',
    breaks: GET_INT64,
    wrap: (fetch) => async (request, env) => (bigPetId(request) ? errorResponse(500, 'internal', 'id overflow') : fetch(request, env)),
    caughtBy: ['get-generated-ids'],
  },
];
