import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, respond } from './http.js';

/**
 * listPets and getPet parameters the fixed rules never send (a limit like
 * "1.5" or "2147483648", a status "Available", a petId "1.5", negative or
 * past int64) answered with a 5xx, a non-JSON body, or a status the
 * interface does not give. The key is checked first, so 401 still wins.
 */

const NO_5XX = 'Errors: the error statuses are 400 (createPet), 401 and 404 (getPet): the interface lists no 5xx.';
const JSON_ONLY = 'What the service does: responses use the media type application/json (Errors: every error response has the Error body).';
const GET_404 = 'Endpoints > Get an animal: petId is an integer (int64); 200, Pet, when the animal exists; 404, Error, when it could not be found.';

/** Answers `answer(value)` instead of the mock for keyed requests of `operation` whose parameter gives one. */
const onParameter =
  (operation: 'listPets' | 'getPet', read: (url: URL) => string | null | undefined, answer: (value: string) => Response | undefined) =>
  (fetch: ServerFetch): ServerFetch =>
  (request, env) => {
    const value = operationOf(request) === operation && hasKey(request) ? read(new URL(request.url)) : undefined;
    const answered = value === null || value === undefined ? undefined : answer(value);
    return answered ?? fetch(request, env);
  };

const query = (name: string) => (url: URL) => url.searchParams.get(name);
const petId = (url: URL) => decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
const crash = (why: string) => errorResponse(500, 'internal_error', why);
const pastInt64 = (text: string) => /^\d+$/.test(text) && BigInt(text) > 2n ** 63n - 1n;

/** Rewrites the mock's answer's content type when `when` holds for the request. */
const sentAs = (contentType: string, when: (request: Request, response: Response) => boolean) => (fetch: ServerFetch): ServerFetch => async (request, env) => {
  const response = await fetch(request, env);
  return when(request, response) ? respond(response, await response.text(), { headers: { 'content-type': contentType } }) : response;
};

export const conditionalParameterDefects: Defect[] = [
  {
    name: 'listPets answers 500 for a limit of digits and other characters ("1.5", "5abc")',
    breaks: `${NO_5XX} (Limits: limit is an integer from 1 to 100.)`,
    // parseInt reads the digits, then a second, stricter parse throws; "abc" (no digit) still gets the mock's 400.
    wrap: onParameter('listPets', query('limit'), (limit) => (/\d/.test(limit) && !/^\d+$/.test(limit) ? crash(`NumberFormatException: ${limit}`) : undefined)),
    caughtBy: ['list-generated-bad-parameters'],
  },
  {
    name: 'listPets answers 500 for a wrongly cased status ("Available")',
    breaks: `${NO_5XX} (Resources > PetStatus: exactly available, pending, sold.)`,
    wrap: onParameter('listPets', query('status'), (status) =>
      ['available', 'pending', 'sold'].includes(status.toLowerCase()) && status !== status.toLowerCase() ? crash(`No enum constant PetStatus.${status}`) : undefined,
    ),
    caughtBy: ['list-generated-bad-parameters'],
  },
  {
    name: 'listPets 400 for a limit past int32 sent as application/problem+json',
    breaks: JSON_ONLY,
    // The integer parser's overflow error, not the range check that answers limit=0 and limit=101.
    wrap: sentAs('application/problem+json', (request, response) => {
      const limit = new URL(request.url).searchParams.get('limit') ?? '';
      return operationOf(request) === 'listPets' && response.status === 400 && /^\d+$/.test(limit) && Number(limit) > 2 ** 31 - 1;
    }),
    caughtBy: ['list-generated-bad-parameters', 'list-limit-boundaries'],
  },
  {
    name: 'getPet answers 500 for a petId with a decimal point ("1.5")',
    breaks: `${NO_5XX} (${GET_404})`,
    wrap: onParameter('getPet', petId, (id) => (id.includes('.') ? crash(`invalid input syntax for type bigint: "${id}"`) : undefined)),
    caughtBy: ['get-generated-bad-ids'],
  },
  {
    name: 'getPet answers 400 for a negative petId',
    breaks: GET_404,
    // A negative int64 is a valid petId that names no animal: 404, not 400.
    wrap: onParameter('getPet', petId, (id) => (/^-\d+$/.test(id) ? errorResponse(400, 'invalid_parameter', 'petId must be positive') : undefined)),
    caughtBy: ['get-generated-ids'],
  },
  {
    name: 'getPet answers 500 for a petId past int64',
    breaks: `${NO_5XX} (${GET_404})`,
    wrap: onParameter('getPet', petId, (id) => (pastInt64(id) ? crash('Value out of range for long') : undefined)),
    caughtBy: ['get-generated-bad-ids'],
  },
  {
    name: 'getPet 404 as text/html for a petId past int64 (the router\'s page)',
    breaks: JSON_ONLY,
    wrap: onParameter('getPet', petId, (id) =>
      pastInt64(id) ? new Response('<!doctype html><title>404 Not Found</title><h1>Not Found</h1>', { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } }) : undefined,
    ),
    caughtBy: ['get-generated-bad-ids'],
  },
];
