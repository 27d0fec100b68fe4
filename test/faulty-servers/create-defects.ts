import { viewWith, type PetView } from './pet-view.js';
import type { Defect, ServerFetch } from './defect.js';
import { afterMock, beforeMock, errorResponse, hasKey, mapJson, mapPets, respond, rewriteRequest, withStatus } from './http.js';

const isCreated = (operation: string | undefined, response: Response) => operation === 'createPet' && response.status === 201;

/** Rewrites a createPet request's JSON object body before the mock reads it (other bodies pass as they are). */
const rewriteBody = (change: (body: Record<string, unknown>) => Record<string, unknown>) =>
  beforeMock(async (request) => {
    if (request.method !== 'POST') return request;
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rewriteRequest(request, { body: text });
    }
    const object = typeof body === 'object' && body !== null && !Array.isArray(body);
    return rewriteRequest(request, { body: object ? JSON.stringify(change(body as Record<string, unknown>)) : text });
  });

/** The id the client sent in a createPet body is the one answered. */
const echoClientId = (fetch: ServerFetch): ServerFetch => async (request, env) => {
  if (request.method !== 'POST') return fetch(request, env);
  const text = await request.text();
  const response = await fetch(await rewriteRequest(request, { body: text }), env);
  let sent: unknown;
  try {
    sent = (JSON.parse(text) as { id?: unknown }).id;
  } catch {
    sent = undefined;
  }
  return response.status === 201 && typeof sent === 'number' ? mapJson(mapPets((pet) => ({ ...pet, id: sent })))(response) : response;
};

/** The catalogue, remembering the ids it creates, with `changes` that may use them. */
function withCreatedIds(pets: PetView, changes: (created: ReadonlySet<number>) => Parameters<typeof viewWith>[1]): PetView {
  const created = new Set<number>();
  return viewWith(pets, {
    create: (pet) => {
      const stored = pets.create(pet);
      created.add(stored.id);
      return stored;
    },
    ...changes(created),
  });
}

export const createDefects: Defect[] = [
  {
    name: 'createPet answers 200 instead of 201',
    breaks: 'Endpoints > Add an animal: 201, Pet, when the animal is added.',
    wrap: afterMock(isCreated, withStatus(200)),
    caughtBy: ['create-returns-pet'],
  },
  {
    name: 'createPet echoes the name upper-cased',
    breaks: 'Endpoints > Add an animal: 201, Pet: the animal added, as sent, with its assigned id.',
    wrap: afterMock(isCreated, mapJson(mapPets((pet) => ({ ...pet, name: String(pet.name).toUpperCase() })))),
    caughtBy: ['create-returns-pet'],
  },
  {
    name: 'createPet echoes categoryId + 1',
    breaks: 'Endpoints > Add an animal: 201, Pet: the animal added, as sent, with its assigned id.',
    wrap: afterMock(isCreated, mapJson(mapPets((pet) => ({ ...pet, categoryId: Number(pet.categoryId) + 1 })))),
    caughtBy: ['create-returns-pet'],
  },
  {
    name: 'createPet drops the status sent',
    breaks: 'Resources > NewPet: status (PetStatus) is a field of the animal added.',
    catalogue: (pets) => viewWith(pets, { create: ({ status: _, ...pet }) => pets.create(pet) }),
    caughtBy: ['create-returns-pet', 'create-listed-under-status'],
  },
  {
    name: 'createPet 201 with an empty body',
    breaks: 'Endpoints > Add an animal: 201, Pet. The body carries the assigned id.',
    wrap: afterMock(isCreated, (response) => respond(response, '')),
    caughtBy: ['create-returns-pet'],
  },
  {
    name: 'id not persisted: getPet of a created id gives 404',
    breaks: 'Endpoints > Get an animal: 200, Pet, when the animal exists.',
    catalogue: (pets) => withCreatedIds(pets, (created) => ({ get: (id) => (created.has(id) ? undefined : pets.get(id)) })),
    caughtBy: ['create-readable-via-get-pet'],
  },
  {
    name: 'stored animal differs from the one answered (categoryId + 1)',
    breaks: 'Endpoints > Add an animal: 201, Pet: the animal added is the one answered.',
    catalogue: (pets) => viewWith(pets, { create: (pet) => ({ ...pets.create({ ...pet, categoryId: Number(pet.categoryId) + 1 }), categoryId: pet.categoryId }) }),
    caughtBy: ['create-readable-via-get-pet'],
  },
  {
    name: 'created animal not listed under its status',
    breaks: 'Endpoints > List animals: status returns the animals with this availability status.',
    catalogue: (pets) =>
      withCreatedIds(pets, (created) => ({
        list: (query) => (query.status === undefined ? pets.list(query) : pets.list(query).filter((pet) => !created.has(pet.id))),
      })),
    caughtBy: ['create-listed-under-status'],
  },
  {
    name: 'the id the client sent is used',
    breaks: 'Resources > NewPet: id is not part of NewPet. It is assigned by the service.',
    wrap: echoClientId,
    caughtBy: ['create-ignores-client-id'],
  },
  {
    name: 'every created animal gets the same id',
    breaks: 'Resources > Pet: id is a unique identifier, assigned by the service on creation.',
    catalogue: (pets) => {
      let first: number | undefined;
      return viewWith(pets, {
        create: (pet) => {
          const stored = pets.create(pet);
          first ??= stored.id;
          return { ...stored, id: first };
        },
      });
    },
    caughtBy: ['create-assigns-unique-ids'],
  },
  {
    name: 'createPet answers 500 for an invalid body',
    breaks: 'Endpoints > Add an animal: 400, Error, when the body is missing required fields or contains invalid values.',
    wrap: afterMock(
      (operation, response) => operation === 'createPet' && response.status === 400,
      mapJson((error) => ({ ...(error as object), code: 'internal_error', status: 500 })),
    ),
    caughtBy: ['create-rejects-missing-name', 'create-rejects-empty-object'],
  },
  {
    name: 'createPet accepts a body without name',
    breaks: 'Endpoints > Add an animal: name and categoryId are required; 400 when the body is missing required fields.',
    wrap: rewriteBody((body) => ('name' in body ? body : { ...body, name: 'unnamed' })),
    caughtBy: ['create-rejects-missing-name'],
  },
  {
    name: 'createPet accepts a status outside PetStatus (dropped)',
    breaks: 'Endpoints > Add an animal: 400 when the body contains invalid values (PetStatus: exactly available, pending, sold).',
    wrap: rewriteBody(({ status, ...body }) => (status === undefined || ['available', 'pending', 'sold'].includes(status as string) ? { ...body, status } : body)),
    caughtBy: ['create-rejects-unknown-status'],
  },
  {
    name: 'createPet accepts a fractional categoryId (rounded down)',
    breaks: 'Endpoints > Add an animal: 400 when the body contains invalid values (categoryId: integer).',
    wrap: rewriteBody((body) => (typeof body.categoryId === 'number' ? { ...body, categoryId: Math.floor(body.categoryId) } : body)),
    caughtBy: ['create-rejects-category-id-fractional'],
  },
  {
    name: 'createPet coerces a numeric-string categoryId ("2")',
    breaks: 'Endpoints > Add an animal: 400 when the body contains invalid values (categoryId: integer).',
    wrap: rewriteBody((body) =>
      typeof body.categoryId === 'string' && /^-?\d+$/.test(body.categoryId) ? { ...body, categoryId: Number(body.categoryId) } : body,
    ),
    caughtBy: ['create-rejects-category-id-not-an-integer'],
  },
  {
    name: 'createPet requires status',
    breaks: 'Resources > NewPet: status is not required (only name and categoryId are).',
    wrap: (fetch) => async (request, env) => {
      // After auth, as the mock's own validation: a 401 stays a 401.
      if (request.method !== 'POST' || !hasKey(request)) return fetch(request, env);
      const text = await request.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (typeof body === 'object' && body !== null && !Array.isArray(body) && !('status' in body)) {
        return errorResponse(400, 'invalid_body', 'status is required');
      }
      return fetch(await rewriteRequest(request, { body: text }), env);
    },
    caughtBy: ['create-without-status'],
  },
  {
    name: 'status null on an animal created without one',
    breaks: 'Resources > Pet: status, when present, is a PetStatus (available, pending, sold).',
    wrap: afterMock(isCreated, mapJson(mapPets((pet) => ('status' in pet ? pet : { ...pet, status: null })))),
    caughtBy: ['create-without-status'],
  },
];
