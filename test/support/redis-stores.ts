import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll } from 'vitest';
import { loadContract } from '../../src/document/load-contract.js';
import type { CatalogueLimits } from '../../src/mock/core/catalogue/catalogue-limits.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import { createScenarioLibrary, type ScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import type { MockStore, ScenarioStart, Session } from '../../src/mock/core/store/mock-store.js';
import { openStore } from '../../src/mock/core/store/open-store.js';
import type { StoreLimits } from '../../src/mock/core/store/store-limits.js';
import { redisCommand } from './redis-command.js';
import { scenarioFolder, scenarioWith } from './scenario-folder.js';

const contract = loadContract();

/**
 * The scenarios the store tests use, in one folder per test file:
 * `every-third` (listPets every third call 503), `machine` (a state
 * machine on getPet: Started → Fed → Started, with a stub that never
 * fits), and `plain` (no stubs that keep anything).
 */
export function storeTestScenarios() {
  const folder = scenarioFolder();
  const fault = { then: { status: 503, retryAfterSeconds: 1 } };
  folder.write('every-third.yaml', scenarioWith('every-third', [{ id: 'third', match: { operation: 'listPets', calls: { every: 3 } }, fault }]));
  folder.write(
    'machine.yaml',
    scenarioWith('machine', [
      { id: 'never', match: { operation: 'getPet', query: { nope: { equals: 'x' } } }, fault },
      { id: 'feed', requiredState: 'Started', newState: 'Fed', match: { operation: 'getPet' }, fault },
      { id: 'digest', requiredState: 'Fed', newState: 'Started', match: { operation: 'getPet', calls: { after: 1 } }, fault },
    ]),
  );
  folder.write('plain.yaml', scenarioWith('plain', [{ id: 'slow', match: { operation: 'createPet', headers: { 'x-slow': { equals: '1' } } }, fault }]));
  folder.write('broken.yaml', 'name: broken\nstubs: [');
  return folder;
}

/** The start catalogue of the store tests' sessions: Milo (id 1) and Bruno (id 2). */
export const STORE_TEST_START: ScenarioStart = { pets: [{ id: 1, name: 'Milo', categoryId: 3, status: 'available' }, { id: 2, name: 'Bruno', categoryId: 2 }] };

export interface StoresOptions extends Partial<StoreLimits> {
  /** Every key under this prefix (unique by default). */
  prefix?: string;
  /** How much each session may add to its catalogue. */
  catalogueLimits?: CatalogueLimits;
  start?: ScenarioStart;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** Told of each session the store's log says ended (to make room). */
  onEnd?: (id: string) => void;
}

/** A log that tells `onEnd` which session each line is about. */
const endedLog = (onEnd: (id: string) => void) =>
  pino({ level: 'info' }, { write: (line: string) => void onEnd(String((JSON.parse(line) as { session?: unknown }).session)) });

/**
 * `count` Redis stores on one Redis and one prefix (unique unless given),
 * as that many mock processes would have: each its own connection,
 * library and scenario versions. Closed after the file.
 */
export async function redisStores(url: string, dir: string, count: number, options: StoresOptions = {}) {
  const prefix = options.prefix ?? `test-${randomUUID()}`;
  const stores: MockStore[] = [];
  const libraries: ScenarioLibrary[] = [];
  for (let i = 0; i < count; i++) {
    const library = createScenarioLibrary({ contract, source: scenariosInFolder(contract, dir), catalogueLimits: options.catalogueLimits });
    const start = options.start ?? STORE_TEST_START;
    libraries.push(library);
    const { onEnd, ...rest } = options;
    stores.push(await openStore({ ...rest, url, prefix, library, start, logger: onEnd && endedLog(onEnd) }));
  }
  afterAll(() => Promise.all(stores.map((store) => store.close())));
  return { prefix, stores, libraries };
}

/** How many keys on the Redis at `url` start with `prefix:`. */
export async function keysUnder(url: string, prefix: string): Promise<number> {
  const port = Number(new URL(url).port);
  return Number(await redisCommand(port, ['EVAL', "return #redis.call('KEYS', ARGV[1])", '0', `${prefix}:*`]));
}

/** A request as a stub's match reads it. */
export const requestView = (query: Record<string, string> = {}, headers: Record<string, string> = {}) => ({
  query: (name: string) => query[name],
  header: (name: string) => headers[name],
  body: undefined,
});

/** Session `id` as a request to `store` gets it: opened anew, as the HTTP layer opens it for each request. */
export async function opened(store: MockStore, id: string): Promise<Session> {
  const session = await store.open(id);
  if (!session.ok) throw new Error('the session table is full');
  return session.value;
}
