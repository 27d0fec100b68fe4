import type { Defect, ServerFetch } from './defect.js';
import { afterMock, errorResponse, operationOf, respond } from './http.js';

const FORGETS_AFTER_MS = 2000;
const CACHED_FOR_MS = 3000;

/**
 * A store that forgets each animal it adds FORGETS_AFTER_MS after adding
 * it: getPet answers 404 and listPets leaves it out. Every rule that reads
 * an animal back at once sees it.
 */
function forgetful(fetch: ServerFetch): ServerFetch {
  const added = new Map<string, number>();
  const forgotten = (id: unknown) => {
    const at = added.get(String(id));
    return at !== undefined && Date.now() - at > FORGETS_AFTER_MS;
  };
  return async (request, env) => {
    const operation = operationOf(request);
    const asked = /\/pets\/([^/?]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (operation === 'getPet' && forgotten(asked)) return errorResponse(404, 'not_found', 'no such animal');
    const response = await fetch(request, env);
    if (response.status === 201 && operation === 'createPet') {
      const pet = (await response.clone().json()) as { id: unknown };
      added.set(String(pet.id), Date.now());
    }
    if (response.status !== 200 || operation !== 'listPets') return response;
    const page = (await response.json()) as Array<{ id: unknown }>;
    return respond(response, JSON.stringify(page.filter((pet) => !forgotten(pet.id))));
  };
}

/** listPets answers served again for CACHED_FOR_MS to the same URL and credentials, whatever was added since. */
function cachedLists(fetch: ServerFetch): ServerFetch {
  const cache = new Map<string, { at: number; status: number; headers: Headers; body: string }>();
  return async (request, env) => {
    if (operationOf(request) !== 'listPets' || request.method !== 'GET') return fetch(request, env);
    const key = `${request.url} ${request.headers.get('authorization') ?? ''}`;
    const kept = cache.get(key);
    if (kept && Date.now() - kept.at < CACHED_FOR_MS) return new Response(kept.body, { status: kept.status, headers: kept.headers });
    const response = await fetch(request, env);
    const body = await response.text();
    if (response.status === 200) cache.set(key, { at: Date.now(), status: response.status, headers: response.headers, body });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** Faults that show only with time: what the store says a few seconds on, and the dates a service says it keeps. */
export const timeDefects: Defect[] = [
  {
    name: 'the store forgets an animal 2 s after adding it',
    breaks: 'Endpoints > Add an animal: 201, Pet, animal added; Get an animal: 200, Pet, when the animal exists.',
    wrap: forgetful,
    settleMs: FORGETS_AFTER_MS + 500,
    caughtBy: ['read-back-after-settle'],
  },
  {
    name: 'listPets answers from a cache kept 3 s',
    breaks: 'Endpoints > List animals: the animals of the catalogue, with the status filter those of that status; an animal added is listed.',
    wrap: cachedLists,
    caughtBy: ['read-back-after-settle'],
  },
  {
    name: 'getPet announces its removal for 5 December 2029 (Sunset)',
    breaks: 'Get an animal (deprecated): it is to be removed on 5 December 2030.',
    wrap: afterMock((operation) => operation === 'getPet', async (response) => respond(response, await response.text(), { headers: { sunset: 'Wed, 05 Dec 2029 00:00:00 GMT' } })),
    caughtBy: ['get-known-id', 'read-back-after-settle'],
  },
];
