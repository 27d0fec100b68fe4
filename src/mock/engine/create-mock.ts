import type { Hono } from 'hono';
// First: ajv for the schemas compiled here, imported (a browser has no require).
import '../../document/static-ajv.js';
import { contractOf, type Contract } from '../../document/contract.js';
import type { OpenApiDocument } from '../../document/openapi-types.js';
import { parseYaml } from '../../shared/parse-yaml.js';
import { shippedText } from '../../shared/shipped-file.js';
import { indexCatalogue } from '../core/catalogue/catalogue-index.js';
import type { Log } from '../core/log/log.js';
import { silentLog } from '../core/log/log.js';
import { activeProfile } from '../core/profile/active-profile.js';
import { createScenarioLibrary } from '../core/scenarios/scenario-library.js';
import { createMemoryStore } from '../core/store/memory/memory-store.js';
import type { MockStore } from '../core/store/mock-store.js';
import { storeLimits } from '../core/store/store-limits.js';
import { createMockApp } from '../http/app.js';
import type { MockEnv } from '../http/exchange.js';
import type { EngineCaller } from './engine-caller.js';
import { engineStart, type CreateMockOptions } from './engine-start.js';

/** The mock in-process: answers a `Request` as the server answers it over HTTP. */
export interface MockEngine {
  /** The Web's fetch, answered by the mock: paths under `/v1` and `/__mock`; a URL without an origin is taken as `http://localhost`. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Back to how it was created: the catalogue, the scenario's state, sessions, stubs and journals. */
  reset(): Promise<void>;
  /** Stops its timers; it answers nothing after. */
  close(): Promise<void>;
}

let shipped: Contract | undefined;

/** The shipped contract document, compiled once a process (or a page): every engine after the first shares it. */
function shippedContract(): Contract {
  shipped ??= contractOf(parseYaml(shippedText('openapi/animal-store.yaml')) as OpenApiDocument);
  return shipped;
}

/**
 * A mock engine: the mock's rules, state and admin API as one `fetch`,
 * with no server, port or file system, so it runs in a test, a story, a
 * service worker or a browser page alike. Everything it starts from is
 * checked first: a bad option is thrown as an Error that names it, and
 * no half-built engine is returned.
 */
export async function createMock(options: CreateMockOptions = {}): Promise<MockEngine> {
  return engineFor(options, 'createMock');
}

/** The engine, its options checked in the name of the function the user called (createMock, or createHandlers). */
export async function engineFor(options: CreateMockOptions, caller: EngineCaller): Promise<MockEngine> {
  const contract = shippedContract();
  const start = await engineStart(contract, options, caller);
  indexCatalogue(start.pets);
  const log: Log = options.log ?? silentLog;
  const open = (): { app: Hono<MockEnv>; store: MockStore } => {
    const library = createScenarioLibrary({ contract, source: start.source, fixedCatalogue: start.fixedCatalogue });
    const store = createMemoryStore({ library, start: { scenario: start.scenario, path: start.scenario.file, pets: start.pets }, limits: storeLimits() });
    const app = createMockApp({ contract, store, apiKeys: start.apiKeys, adminKey: options.adminKey, logger: log, profile: activeProfile(start.profile) });
    return { app, store };
  };
  let current: { app: Hono<MockEnv>; store: MockStore } | undefined = open();
  const running = (): { app: Hono<MockEnv>; store: MockStore } => {
    if (!current) throw new Error('this mock engine was closed');
    return current;
  };
  return {
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(absolute(input), init);
      return running().app.fetch(request);
    },
    async reset() {
      const before = running();
      current = open();
      await before.store.close();
    },
    async close() {
      const before = current;
      current = undefined;
      await before?.store.close();
    },
  };
}

/** A URL as fetch takes it; a path alone (`/v1/pets`) is on `http://localhost`, as an app's relative calls are. */
function absolute(input: Request | string | URL): Request | string | URL {
  return typeof input === 'string' && input.startsWith('/') ? new URL(input, 'http://localhost') : input;
}
