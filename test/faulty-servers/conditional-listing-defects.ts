import { viewWith, type PetView } from './pet-view.js';
import type { Pet } from '../../src/mock/core/catalogue/pet.js';
import type { Defect, ServerFetch } from './defect.js';
import { errorResponse, hasKey, operationOf, respond } from './http.js';

/**
 * Listings wrong only at limits the fixed rules do not ask (99, past 100),
 * or with a status and a limit under 100; and creates wrong only when more
 * than BURST are queued at once, as the fixed rules never make them.
 */

const LIMIT = 'Endpoints > List animals: limit (minimum 1, maximum 100, default 20) is the maximum number of animals returned.';
const STATUS = 'Endpoints > List animals: status returns only animals with this availability status (and, within limit, those animals).';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Past limit=100 the mock refuses; this server answers up to `limit`
 * animals, gathered from the mock's pages of 100 (unfiltered and each
 * status), in id order.
 */
const noMaximum = (fetch: ServerFetch): ServerFetch => async (request, env) => {
  const url = new URL(request.url);
  const limit = url.searchParams.get('limit') ?? '';
  if (operationOf(request) !== 'listPets' || !hasKey(request) || url.searchParams.has('status') || !/^\d+$/.test(limit) || Number(limit) <= 100) return fetch(request, env);
  const pages = await Promise.all(
    ['', 'available', 'pending', 'sold'].map(async (status) => {
      const page = new URL(url);
      page.searchParams.set('limit', '100');
      if (status) page.searchParams.set('status', status);
      return (await (await fetch(new Request(page, { headers: request.headers }), env)).json()) as Pet[];
    }),
  );
  const pets = [...new Map(pages.flat().map((pet) => [pet.id, pet])).values()].sort((a, b) => a.id - b.id).slice(0, Number(limit));
  return new Response(JSON.stringify(pets), { status: 200, headers: { 'content-type': 'application/json' } });
};

/** Creates queued at once past which the server takes its shortcuts (BURST + 1 and more). */
const BURST = 10;
/** How long each write holds the one writer: creates sent together queue behind each other. */
const WRITE_MS = 5;
/** How far the replica getPet reads lags behind a burst. */
const LAG_MS = 50;

/**
 * One writer: keyed creates wait their turn, each holding it WRITE_MS, and
 * `queued` counts those waiting or writing. Each fixed rule creates one at
 * a time (the suite runs at most 8 rules at once, and the harness's
 * catalogue fill sends at most 8 creates at once), so the queue stays under
 * BURST; only creates sent together in numbers (create-concurrent-unique-ids
 * sends 20) make it longer.
 */
function writeQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  let queued = 0;
  return {
    get queued() {
      return queued;
    },
    run(write: () => Response | Promise<Response>): Promise<Response> {
      queued++;
      const done = tail.then(() => sleep(WRITE_MS)).then(write).finally(() => queued--);
      tail = done.catch(() => undefined);
      return done;
    },
  };
}

/**
 * With a long queue the id is read on arrival ("SELECT max(id) + 1"),
 * before the wait, and answered after it: creates that arrive together get
 * the same id. With a short queue the id is read in turn, and right.
 */
const racyIds = (fetch: ServerFetch): ServerFetch => {
  const writer = writeQueue();
  let next: number | undefined;
  return async (request, env) => {
    if (operationOf(request) !== 'createPet' || !hasKey(request)) return fetch(request, env);
    const early = writer.queued >= BURST ? next : undefined;
    const response = await writer.run(() => fetch(request, env));
    if (response.status !== 201) return response;
    const pet = (await response.json()) as Pet;
    next = Math.max(next ?? 0, pet.id + 1);
    return respond(response, JSON.stringify({ ...pet, id: early ?? pet.id }));
  };
};

/**
 * getPet reads a replica that has not yet applied the animals whose create
 * arrived with a long queue: the first read of each (which makes the
 * replica catch up), and any read within LAG_MS, answers 404. With a short
 * queue the replica keeps up. A miss on the first read rather than a time
 * alone: a loaded test machine may take longer than any lag to read back.
 */
const laggingReplica = (fetch: ServerFetch): ServerFetch => {
  const writer = writeQueue();
  const behind = new Map<number, { until: number; read: boolean }>();
  return async (request, env) => {
    const operation = operationOf(request);
    if (!hasKey(request)) return fetch(request, env);
    if (operation === 'createPet') {
      const busy = writer.queued >= BURST;
      const response = await writer.run(() => fetch(request, env));
      if (response.status !== 201 || !busy) return response;
      const text = await response.text();
      behind.set((JSON.parse(text) as Pet).id, { until: Date.now() + LAG_MS, read: false });
      return respond(response, text);
    }
    const id = operation === 'getPet' ? Number(new URL(request.url).pathname.split('/').at(-1)) : NaN;
    const lag = behind.get(id);
    if (lag && (!lag.read || Date.now() < lag.until)) {
      lag.read = true;
      return errorResponse(404, 'pet_not_found', `No animal has the id ${id}.`);
    }
    return fetch(request, env);
  };
};

export const conditionalListingDefects: Defect[] = [
  {
    name: 'more than 100 animals for a limit above 100',
    breaks: `${LIMIT} (Limits: limit maximum 100.)`,
    wrap: noMaximum,
    caughtBy: ['list-limit-boundaries', 'list-generated-bad-parameters'],
  },
  {
    name: 'status filter applied after cutting the page (limits under 100)',
    breaks: STATUS,
    // Filtering the first `limit` animals: a status page holds fewer than there are. At limit=100 (the fixed rules' status pages) a full scan.
    catalogue: (pets) => viewWith(pets, { list: ({ limit, status }) => (status !== undefined && limit < 100 ? pets.list({ limit }).filter((pet) => pet.status === status) : pets.list({ limit, status })) }),
    caughtBy: ['list-generated-pages'],
  },
  {
    name: 'the unfiltered list leaves out animals without a status',
    breaks: 'Endpoints > List animals: status is optional; without it, the animals (up to limit) whatever their status, which is itself optional (Resources > Pet).',
    // The fixed rules count the catalogue through what listPets shows, so they see a smaller, consistent catalogue;
    // the harness's own creates without a status (the fill) say how many exist.
    catalogue: (pets) =>
      viewWith(pets, { list: ({ limit, status }) => (status === undefined ? pets.list({ limit: Number.MAX_SAFE_INTEGER }).filter((pet) => pet.status !== undefined).slice(0, limit) : pets.list({ limit, status })) }),
    caughtBy: ['list-limit-boundaries'],
  },
  {
    name: 'limit=99 answers 98 animals',
    breaks: LIMIT,
    catalogue: (pets) => viewWith(pets, { list: (query) => pets.list(query.limit === 99 ? { ...query, limit: 98 } : query) }),
    caughtBy: ['list-limit-boundaries', 'list-generated-pages'],
  },
  {
    name: 'creates sent together get the same id (id read before waiting in a long write queue)',
    breaks: 'Resources > Pet: id is a unique identifier, assigned by the service on creation.',
    wrap: racyIds,
    caughtBy: ['create-concurrent-unique-ids'],
  },
  {
    name: 'animals created in a burst of creates are 404 on their first getPet (and for 50 ms)',
    breaks: 'Endpoints > Add an animal: 201, Pet, animal added; Endpoints > Get an animal: 200, Pet, when the animal exists.',
    wrap: laggingReplica,
    caughtBy: ['create-concurrent-unique-ids'],
  },
];
