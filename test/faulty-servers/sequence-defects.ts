import type { HttpBindings } from '@hono/node-server';
import type { Defect, ServerFetch } from './defect.js';
import { beforeMock, errorResponse, hasKey, mapJson, operationOf, respond, rewriteRequest, withKey } from './http.js';

/**
 * Defects the fixed and earlier searching rules pass: a petId written
 * another way than plain decimal digits; a key check skipped for one
 * combination of generated parameters; and faults that show only when an
 * id is asked for before it exists, or an animal is read or listed after
 * other creates.
 */

const PET_ID = 'Endpoints > Get an animal: petId (integer, int64) is the identifier of the animal to retrieve; 200, Pet, when it exists; 404, Error, otherwise.';
const AUTH = 'Authentication: the requirement applies to every operation; when the key is missing or invalid, the service answers 401 with an Error body.';
const AVAILABLE = 'Endpoints > Add an animal: 201, Pet, animal added; Get an animal: 200, Pet, the animal exists (404 only when it could not be found).';
const LISTED = 'Endpoints > List animals: status returns the animals with this availability status (within limit).';

const PATH_FORMS = ['get-id-path-forms'];
const SEQUENCE = ['get-before-and-after-create'];

/** getPet's petId as it came on the wire (not percent-decoded). */
const rawPetId = (request: Request): string | undefined => (operationOf(request) === 'getPet' ? new URL(request.url).pathname.split('/').at(-1) : undefined);

const decoded = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

/** getPet of another id than the one asked for, as a server that read the petId so would look it up. */
function askFor(request: Request, id: string): Promise<Request> {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/[^/]+$/, id);
  return rewriteRequest(request, { url: url.href });
}

/** A petId reading: what the server makes of the raw segment, or undefined to leave the request as it is. */
const readPetId = (read: (raw: string) => string | undefined) =>
  beforeMock((request) => {
    const raw = rawPetId(request);
    const id = raw === undefined ? undefined : read(raw);
    return id === undefined ? request : askFor(request, id);
  });

const pathDefects: Defect[] = [
  {
    name: 'a petId with leading zeros read as octal (/pets/0100 answers animal 64)',
    breaks: PET_ID,
    // C's strtol with base 0, or an old parseInt: a leading zero means octal.
    wrap: readPetId((raw) => (/^0\d+$/.test(raw) ? String(parseInt(raw, 8) || 0) : undefined)),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'a petId with leading zeros answers 500',
    breaks: PET_ID,
    wrap: (fetch) => async (request, env) => (/^0\d/.test(rawPetId(request) ?? '') ? errorResponse(500, 'internal_error', 'invalid id format') : fetch(request, env)),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'percent-encoded digits in petId (/pets/%37) answer 404 while /pets/7 answers the animal',
    breaks: `${PET_ID} (RFC 3986 §2.3: %37 and 7 are the same path.)`,
    // The route matched on the raw path, which it never decodes.
    wrap: (fetch) => async (request, env) => (/%3\d/i.test(rawPetId(request) ?? '') ? errorResponse(404, 'pet_not_found', 'No animal has that id.') : fetch(request, env)),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'petId read with parseInt (/pets/7abc and /pets/7.5 answer animal 7)',
    breaks: PET_ID,
    wrap: readPetId((raw) => {
      const text = decoded(raw);
      return text !== undefined && /^\d+\D/.test(text) ? String(parseInt(text, 10)) : undefined;
    }),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'petId percent-decoded twice (/pets/%2537 answers animal 7)',
    breaks: `${PET_ID} (RFC 3986 §2.4: a URI is decoded once; %25 is the character %.)`,
    wrap: readPetId((raw) => {
      const once = decoded(raw);
      const twice = once === undefined ? undefined : decoded(once);
      return once !== undefined && !/^\d+$/.test(once) && twice !== undefined && /^\d+$/.test(twice) ? twice : undefined;
    }),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'petId with every character but digits and minus dropped (/pets/7.0 answers animal 70)',
    breaks: PET_ID,
    wrap: readPetId((raw) => {
      const kept = decoded(raw)?.replace(/[^\d-]/g, '');
      return kept && kept !== decoded(raw) ? kept : undefined;
    }),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'petId decoded before the query is split off (/pets/7%3F answers animal 7)',
    breaks: `${PET_ID} (RFC 3986 §2.2: a percent-encoded "?" is data, not the query's delimiter.)`,
    // The whole target decoded first, then cut at the first "?": "7abc" and "7.5" stay no id.
    wrap: readPetId((raw) => /^(\d+)\?/.exec(decoded(raw) ?? '')?.[1]),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'petId read as a C string (/pets/7%00 answers animal 7)',
    breaks: PET_ID,
    // The decoded segment handed to a C library, which stops at the NUL.
    wrap: readPetId((raw) => /^(\d+)\0/.exec(decoded(raw) ?? '')?.[1]),
    caughtBy: PATH_FORMS,
  },
  {
    name: 'an overlong UTF-8 slash decoded as "/" (/pets/7%C0%AF answers animal 7)',
    breaks: `${PET_ID} (RFC 3629 §3: an overlong form is no character.)`,
    // A lenient UTF-8 decoder reads C0 AF as "/", and the router drops the trailing slash.
    wrap: readPetId((raw) => /^(\d+)%C0%AF$/i.exec(raw)?.[1]),
    caughtBy: PATH_FORMS,
  },
  {
    name: "petId read with Unicode digits (/pets/\uFF17 answers animal 7)",
    breaks: `${PET_ID} (An integer path parameter is written in ASCII digits.)`,
    // Python's int() or an NFKC normalisation takes fullwidth digits for ASCII ones.
    wrap: readPetId((raw) => {
      const text = decoded(raw)?.normalize('NFKC');
      return text !== undefined && text !== decoded(raw) && /^\d+$/.test(text) ? text : undefined;
    }),
    caughtBy: PATH_FORMS,
  },
];

/** Lets a request through with the accepted key when `when` holds for it (and its body's text, for a POST). */
const skipKeyCheckWhen = (when: (request: Request, body: string) => boolean) =>
  beforeMock(async (request) => {
    if (hasKey(request)) return request;
    const body = request.method === 'POST' ? await request.text() : '';
    if (when(request, body)) return withKey(request, request.method === 'POST' ? body : undefined);
    return request.method === 'POST' ? rewriteRequest(request, { body }) : request;
  });

const query = (request: Request) => new URL(request.url).searchParams;
const bodyHas = (body: string, field: string) => {
  try {
    const json = JSON.parse(body) as unknown;
    return typeof json === 'object' && json !== null && field in json;
  } catch {
    return false;
  }
};
const AUTH_LIST = ['auth-generated-list-pets'];
const AUTH_GET = ['auth-generated-get-pet'];
const AUTH_CREATE = ['auth-generated-create-pet'];

const authDefects: Defect[] = [
  {
    name: 'the key is not checked on listPets when status=sold is asked',
    breaks: AUTH,
    wrap: skipKeyCheckWhen((request) => operationOf(request) === 'listPets' && query(request).get('status') === 'sold'),
    caughtBy: AUTH_LIST,
  },
  {
    name: 'the key is not checked on listPets when limit=1 is asked',
    breaks: AUTH,
    wrap: skipKeyCheckWhen((request) => operationOf(request) === 'listPets' && query(request).get('limit') === '1'),
    caughtBy: AUTH_LIST,
  },
  {
    name: 'the key is not checked on getPet for ids from 1000 to 2^31-1',
    breaks: AUTH,
    wrap: skipKeyCheckWhen((request) => {
      const id = Number(rawPetId(request));
      return Number.isInteger(id) && id >= 1000 && id <= 2 ** 31 - 1;
    }),
    caughtBy: AUTH_GET,
  },
  {
    name: 'createPet without an Authorization header accepted when the body has a status',
    breaks: AUTH,
    wrap: skipKeyCheckWhen((request, body) => operationOf(request) === 'createPet' && !request.headers.has('authorization') && bodyHas(body, 'status')),
    caughtBy: AUTH_CREATE,
  },
  {
    name: 'createPet with an empty bearer token ("Bearer" alone) accepted when the body has a name',
    breaks: AUTH,
    // Only this operation, and only for a body the fixed near-miss probe ({}) does not send.
    wrap: skipKeyCheckWhen((request, body) => operationOf(request) === 'createPet' && /^bearer *$/i.test(request.headers.get('authorization') ?? '') && bodyHas(body, 'name')),
    caughtBy: AUTH_CREATE,
  },
  {
    name: 'createPet with bad credentials answers 401 but stores the animal',
    breaks: `${AUTH} (A refused request changes nothing.)`,
    wrap: (fetch) => async (request, env) => {
      if (operationOf(request) !== 'createPet' || hasKey(request)) return fetch(request, env);
      const body = await request.text();
      const refused = await fetch(await rewriteRequest(request, { body }), env);
      // The write went ahead of the check.
      if (refused.status === 401) await fetch(await withKey(request, body), env);
      return refused;
    },
    caughtBy: AUTH_CREATE,
  },
];

/** What a server remembers across requests: the animals created, in order, the ids answered 404 (and when first). */
interface Memory {
  created: Array<{ id: number; status?: string }>;
  notFound: Map<number, number>;
}

type Handler = (request: Request, env: HttpBindings, fetch: ServerFetch, memory: Memory) => Response | Promise<Response>;

const idOf = (request: Request): number | undefined => {
  const raw = rawPetId(request);
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
};

/** A server that answers as `handle` says and remembers what it answered, for each request with the key. */
const remembering = (handle: Handler) => (fetch: ServerFetch): ServerFetch => {
  const memory: Memory = { created: [], notFound: new Map() };
  return async (request, env) => {
    const keyed = hasKey(request);
    const operation = operationOf(request);
    const id = idOf(request);
    const response = await handle(request, env, fetch, memory);
    if (keyed && operation === 'getPet' && id !== undefined && response.status === 404 && !memory.notFound.has(id)) memory.notFound.set(id, Date.now());
    if (!keyed || operation !== 'createPet' || response.status !== 201) return response;
    const text = await response.text();
    const pet = JSON.parse(text) as { id: number; status?: string };
    memory.created.push(pet.status === undefined ? { id: pet.id } : { id: pet.id, status: pet.status });
    return respond(response, text);
  };
};

/** The animal created just before the one with `id`, if both were created here. */
const previous = (memory: Memory, id: number) => memory.created[memory.created.findIndex((c) => c.id === id) - 1]?.id;
const createdAfter = (memory: Memory, id: number) => {
  const at = memory.created.findIndex((c) => c.id === id);
  return at === -1 ? 0 : memory.created.length - at - 1;
};
const createdWithout = (memory: Memory, id: number) => memory.created.some((c) => c.id === id && c.status === undefined);

/** Leaves out of every listPets page the animals `hidden` names. */
const listedWithout = (hidden: (memory: Memory, id: number) => boolean): Handler => async (request, env, fetch, memory) => {
  const response = await fetch(request, env);
  if (operationOf(request) !== 'listPets' || response.status !== 200) return response;
  return mapJson((json) => (json as Array<{ id: number }>).filter((pet) => !hidden(memory, pet.id)))(response);
};

/** Answers getPet of `id` as `answer` says (undefined: as the mock does). */
const getPetAs = (answer: (memory: Memory, id: number, request: Request) => Response | Promise<Request> | undefined): Handler => async (request, env, fetch, memory) => {
  const id = idOf(request);
  const instead = id !== undefined && hasKey(request) ? answer(memory, id, request) : undefined;
  if (instead instanceof Response) return instead;
  return fetch(instead ? await instead : request, env);
};

const notFound = (id: number) => errorResponse(404, 'pet_not_found', `No animal has the id ${id}.`);

const availabilityDefects: Defect[] = [
  {
    name: 'getPet caches a 404 and keeps answering it after an animal gets that id',
    breaks: AVAILABLE,
    wrap: remembering(getPetAs((memory, id) => (memory.notFound.has(id) ? notFound(id) : undefined))),
    caughtBy: SEQUENCE,
  },
  {
    name: 'getPet of an id asked for before it existed answers the animal created just before it',
    breaks: AVAILABLE,
    wrap: remembering(
      getPetAs((memory, id, request) => {
        const before = memory.notFound.has(id) ? previous(memory, id) : undefined;
        return before === undefined ? undefined : askFor(request, String(before));
      }),
    ),
    caughtBy: SEQUENCE,
  },
  {
    name: 'getPet keeps a 404 for two seconds (negative caching), after an animal gets that id too',
    breaks: `${AVAILABLE} (A cache in front of the service keeps "not found" answers.)`,
    wrap: remembering(getPetAs((memory, id) => (Date.now() - (memory.notFound.get(id) ?? -Infinity) < 2000 ? notFound(id) : undefined))),
    caughtBy: SEQUENCE,
  },
  {
    name: 'an animal whose id was asked for before it existed is left out of listings',
    breaks: LISTED,
    wrap: remembering(listedWithout((memory, id) => memory.notFound.has(id))),
    caughtBy: SEQUENCE,
  },
  {
    name: 'an animal created without a status is gone from getPet after the next create',
    breaks: AVAILABLE,
    wrap: remembering(getPetAs((memory, id) => (createdWithout(memory, id) && createdAfter(memory, id) >= 1 ? notFound(id) : undefined))),
    caughtBy: SEQUENCE,
  },
  {
    name: 'getPet of an animal created without a status answers the one created before it, after two more creates',
    breaks: AVAILABLE,
    wrap: remembering(
      getPetAs((memory, id, request) => {
        const before = createdWithout(memory, id) && createdAfter(memory, id) >= 2 ? previous(memory, id) : undefined;
        return before === undefined ? undefined : askFor(request, String(before));
      }),
    ),
    caughtBy: SEQUENCE,
  },
];

export const sequenceDefects: Defect[] = [...pathDefects, ...authDefects, ...availabilityDefects];
