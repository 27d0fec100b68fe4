import { viewWith, type PetView } from './pet-view.js';
import type { Defect } from './defect.js';
import { afterMock, beforeMock, errorResponse, hasKey, mapJson, mapPets, operationOf, respond, rewriteRequest } from './http.js';

const isList = (operation: string | undefined, response: Response) => operation === 'listPets' && response.status === 200;

/** A listPets request with its `limit` changed when `change` returns a value. */
const rewriteLimit = (change: (limit: string | null) => string | undefined) =>
  beforeMock((request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !/\/pets\/?$/.test(url.pathname)) return request;
    const limit = change(url.searchParams.get('limit'));
    if (limit === undefined) return request;
    url.searchParams.set('limit', limit);
    return rewriteRequest(request, { url: url.href });
  });

export const listDefects: Defect[] = [
  {
    name: 'listPets answers 201 instead of 200',
    breaks: 'Endpoints > List animals: 200, Pets (JSON array of Pet), on success.',
    wrap: afterMock(isList, async (response) => respond(response, await response.text(), { status: 201 })),
    caughtBy: ['list-default-limit', 'list-limit-1'],
  },
  {
    name: 'Pets items lack name',
    breaks: 'Resources > Pet: name (string) is required.',
    wrap: afterMock(isList, mapJson(mapPets(({ name: _, ...pet }) => pet))),
    caughtBy: ['list-items-are-pets'],
  },
  {
    name: 'Pet ids are strings',
    breaks: 'Resources > Pet: id is an integer (int64).',
    wrap: afterMock(isList, mapJson(mapPets((pet) => ({ ...pet, id: String(pet.id) })))),
    caughtBy: ['list-items-are-pets'],
  },
  {
    name: 'Pet status outside PetStatus ("adopted" for "sold")',
    breaks: 'Resources > PetStatus: a string with exactly these allowed values: available, pending, sold.',
    wrap: afterMock(isList, mapJson(mapPets((pet) => (pet.status === 'sold' ? { ...pet, status: 'adopted' } : pet)))),
    caughtBy: ['list-status-sold'],
  },
  {
    name: 'status filter ignored',
    breaks: 'Endpoints > List animals: status returns only animals with this availability status.',
    catalogue: (pets) => viewWith(pets, { list: ({ limit }) => pets.list({ limit }) }),
    caughtBy: ['list-status-available', 'list-status-pending', 'list-status-sold'],
  },
  {
    name: 'status filter answers an empty list',
    breaks: 'Endpoints > List animals: status returns the animals with this availability status.',
    catalogue: (pets) => viewWith(pets, { list: (query) => (query.status === undefined ? pets.list(query) : []) }),
    caughtBy: ['list-status-available', 'list-status-pending', 'list-status-sold'],
  },
  {
    name: 'limit=1 answers an empty list',
    breaks: 'Limits: limit is the maximum number of animals returned (1 returns one when there is one).',
    catalogue: (pets) => viewWith(pets, { list: (query) => (query.limit === 1 ? [] : pets.list(query)) }),
    caughtBy: ['list-limit-1'],
  },
  {
    name: 'limit ignored',
    breaks: 'Endpoints > List animals: limit is the maximum number of animals returned.',
    catalogue: (pets) => viewWith(pets, { list: ({ status }) => pets.list({ limit: Number.MAX_SAFE_INTEGER, status }) }),
    caughtBy: ['list-limit-1', 'list-limit-honoured'],
  },
  {
    name: 'limit off by one (limit + 1 animals)',
    breaks: 'Endpoints > List animals: limit is the maximum number of animals returned.',
    catalogue: (pets) => viewWith(pets, { list: ({ limit, status }) => pets.list({ limit: limit + 1, status }) }),
    caughtBy: ['list-limit-1', 'list-limit-honoured'],
  },
  {
    name: 'no default limit: every animal when limit is omitted',
    breaks: 'Limits: limit, default when omitted: 20.',
    wrap: rewriteLimit((limit) => (limit === null ? '100' : undefined)),
    caughtBy: ['list-default-limit'],
  },
  {
    name: 'default limit 10 instead of 20',
    breaks: 'Limits: limit, default when omitted: 20.',
    wrap: rewriteLimit((limit) => (limit === null ? '10' : undefined)),
    caughtBy: ['list-default-limit'],
  },
  {
    name: 'limit clamped to the default (20)',
    breaks: 'Endpoints > List animals: limit, maximum 100, is the maximum number of animals returned.',
    catalogue: (pets) => viewWith(pets, { list: ({ limit, status }) => pets.list({ limit: Math.min(limit, 20), status }) }),
    caughtBy: ['list-limit-honoured'],
  },
  {
    name: 'limit=100 refused (maximum off by one)',
    breaks: 'Limits: limit, maximum 100.',
    wrap: (fetch) => (request, env) =>
      hasKey(request) && new URL(request.url).searchParams.get('limit') === '100'
        ? errorResponse(400, 'invalid_parameter', 'limit must be at most 99')
        : fetch(request, env),
    caughtBy: ['list-limit-100'],
  },
  {
    name: 'list wrapped in an object {items: [...]}',
    breaks: 'Resources > Pets: a JSON array whose items are Pet.',
    wrap: afterMock(isList, mapJson((items) => ({ items }))),
    caughtBy: ['list-default-limit', 'list-items-are-pets'],
  },
  {
    name: 'an animal listed twice',
    breaks: 'Resources > Pet: id is a unique identifier.',
    // The first animal again at the end, when the limit leaves room: nothing else changes.
    wrap: (fetch) => async (request, env) => {
      const room = Number(new URL(request.url).searchParams.get('limit') ?? 20);
      const response = await fetch(request, env);
      if (!isList(operationOf(request), response)) return response;
      return mapJson((pets) => (Array.isArray(pets) && pets.length > 0 && pets.length < room ? [...pets, pets[0]] : pets))(response);
    },
    caughtBy: ['list-items-are-pets'],
  },
  {
    name: 'listPets 200 sent as text/plain',
    breaks: 'What the service does: requests and responses use the media type application/json.',
    wrap: afterMock(isList, async (response) => respond(response, await response.text(), { headers: { 'content-type': 'text/plain; charset=utf-8' } })),
    caughtBy: ['list-default-limit', 'list-items-are-pets'],
  },
  {
    name: 'listPets 200 with a UTF-8 byte order mark before its JSON',
    breaks: 'What the service does: requests and responses use the media type application/json (RFC 8259 §8.1: implementations MUST NOT add a byte order mark to the beginning of a networked-transmitted JSON text).',
    // As a server whose writer is set to UTF-8 with a signature sends it: EF BB BF, then the JSON text.
    wrap: afterMock(isList, async (response) => respond(response, `\uFEFF${await response.text()}`)),
    caughtBy: ['list-default-limit', 'list-items-are-pets'],
  },
  {
    name: 'listPets 200 marked Cache-Control: public',
    breaks: "Authentication: when the key is missing or invalid, the service answers 401 (RFC 9111 §3.5: an answer to a request with Authorization that Cache-Control marks public may be reused by a shared cache for any other request, one without the key included).",
    // As a CDN rule that marks every GET public for an hour, whoever asked.
    wrap: afterMock(isList, async (response) => respond(response, await response.text(), { headers: { 'cache-control': 'public, max-age=3600' } })),
    caughtBy: ['list-default-limit', 'list-items-are-pets'],
  },
];
