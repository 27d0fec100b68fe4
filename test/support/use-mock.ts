import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { loadContract } from '../../src/document/load-contract.js';
import { loadFixtureCatalogue } from '../../src/mock/core/fixtures/load-catalogue.js';
import { createLogger } from '../../src/mock/logger.js';
import { defaultScenariosDir, findScenario } from '../../src/mock/core/scenarios/find-scenario.js';
import { loadScenario } from '../../src/mock/core/scenarios/load-scenario.js';
import { buildScenarioCatalogue } from '../../src/mock/core/scenarios/scenario-catalogue.js';
import { createScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import type { MockStore } from '../../src/mock/core/store/mock-store.js';
import { openStore } from '../../src/mock/core/store/open-store.js';
import { startMockServer, type RunningMockServer } from '../../src/mock/http/server.js';
import type { LoadedProfile } from '../../src/mock/core/profile/checked-profile.js';
import { loadProfile } from '../../src/mock/core/profile/load-profile.js';
import type { TransportLimits } from '../../src/mock/http/transport/transport-limits.js';
import type { Pet } from '../../src/mock/core/catalogue/pet.js';
import { adminDocumentChecker } from './admin-document.js';
import { checkedFetch, type FidelityFailure } from './checked-fetch.js';

export const TEST_KEY = 'test-key-123';

export interface MockOptions {
  pets?: Pet[];
  apiKeys?: string[];
  /** `--admin-key`: every admin request needs it. */
  adminKey?: string;
  /** The address to bind (`--host`; default 127.0.0.1). */
  host?: string;
  corsOrigins?: '*' | string[];
  /** The store as the mock serves it: a test's deliberately broken catalogue wraps the real one (see wrapCatalogues). */
  wrapStore?: (store: MockStore) => MockStore;
  /** Serve another contract document than openapi/animal-store.yaml. */
  contractPath?: string;
  /** Start in this scenario, as `--scenario NAME` does: its stubs, and its catalogue unless `pets` is given. */
  scenario?: string;
  /** Where to find it (`--scenarios DIR`); default the project's scenarios/. */
  scenariosDir?: string;
  /** Reload the active scenario when its file changes (off by default here; on by default on the command line). */
  watch?: boolean;
  /** How many requests each journal keeps (default 500). */
  journalSize?: number;
  /** Session limits (`--max-sessions`, `--session-idle`) and `--session-per-key`. */
  maxSessions?: number;
  sessionIdleMs?: number;
  /** How recently used a session must be to be safe from eviction (default 60 s). */
  sessionProtectMs?: number;
  sessionPerKey?: boolean;
  /** `--max-pets` and `--max-catalogue-bytes`: how much each session may add. */
  catalogueLimits?: { maxPets: number; maxBytes: number };
  /** Connection bounds and timeouts (short ones for the timeout tests). */
  transport?: Partial<TransportLimits>;
  /** How long a journal stream lives (10 minutes; short for its test). */
  streamLifetimeMs?: number;
  /** `--profile FILE`: the choices where the interface is silent, read as the command line reads them (watched when `watch` is on). */
  profileFile?: string;
}

export interface AdminResponse {
  status: number;
  headers: Headers;
  /** The body parsed as JSON (every admin answer is JSON). */
  json: any;
}

/**
 * Starts the real mock on an ephemeral port for one test file, over real
 * HTTP, and checks every response against the contract (fidelity check).
 * The log is captured as JSON lines for assertions.
 */
/** A profile file loaded as `--profile` loads it; a test's file that does not load is the test's mistake. */
function profileFrom(file: string): LoadedProfile {
  const loaded = loadProfile(file);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

export function useMock(options: MockOptions = {}) {
  const contract = loadContract(options.contractPath);
  const failures: FidelityFailure[] = [];
  const checkAdmin = adminDocumentChecker();
  const adminFailures: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  let server: RunningMockServer | undefined;
  let store: MockStore | undefined;
  let closed = false;
  const mock = {
    get url(): string {
      if (!server) throw new Error('the mock is not started yet');
      return server.url;
    },
    /** The port the mock listens on, for raw sockets. */
    get port(): number {
      if (!server) throw new Error('the mock is not started yet');
      return server.port;
    },
    /** The store the mock serves from (memory, or the run's Redis). */
    get store(): MockStore {
      if (!store) throw new Error('the mock is not started yet');
      return store;
    },
    logs,
    /** The session's active scenario as `GET /__mock/health` shows it (on either store): its state, each stub's call count, its animals. */
    health: async (headers: Record<string, string> = {}): Promise<{ scenario: string | null; state: string | null; calls: number[]; pets: number }> =>
      (await mock.admin('/health', { headers })).json,
    /**
     * fetch an admin path below `/__mock` (`/health`), checked against
     * openapi/mock-admin.yaml. Unless `init` sets Authorization, it sends
     * what the admin API needs: the admin key on every request when the
     * mock has one, else the first API key on a write (anything but GET and HEAD).
     */
    admin: (path: string, init?: RequestInit): Promise<AdminResponse> => {
      const headers = new Headers(init?.headers);
      const method = init?.method ?? 'GET';
      const key = options.adminKey ?? (method === 'GET' || method === 'HEAD' ? undefined : (options.apiKeys ?? [TEST_KEY])[0]);
      if (key !== undefined && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
      return mock.adminAsIs(path, { ...init, headers });
    },
    /** The same, sending only what `init` holds (no credentials added). */
    adminAsIs: async (path: string, init?: RequestInit): Promise<AdminResponse> => {
      if (!server) throw new Error('the mock is not started yet');
      const res = await fetch(`${server.origin}/__mock${path}`, init);
      const text = await res.text();
      const json = text === '' ? undefined : JSON.parse(text);
      const problem = checkAdmin(init?.method ?? 'GET', `/__mock${path}`, res.status, json);
      if (problem) adminFailures.push(problem);
      return { status: res.status, headers: res.headers, json };
    },
    /** Stops the mock before the file ends, as its command line's SIGTERM does (afterAll then only checks). */
    close: async (): Promise<void> => {
      closed = true;
      await server?.close();
    },
    /** fetch a path below the base URL (`/pets`), with the fidelity check. */
    request: (path: string, init?: RequestInit) => checkedFetch(mock.url, failures)(path, init),
    /** The same, with the accepted key. */
    authed: (path: string, init: RequestInit = {}) =>
      checkedFetch(mock.url, failures)(path, { ...init, headers: { authorization: `Bearer ${TEST_KEY}`, ...(init.headers as Record<string, string>) } }),
  };

  beforeAll(async () => {
    const scenariosDir = options.scenariosDir ?? defaultScenariosDir();
    const scenario = options.scenario === undefined ? undefined : loadScenario(contract, scenariosDir, options.scenario);
    const found = options.scenario === undefined ? undefined : findScenario(scenariosDir, options.scenario);
    if (scenario && !scenario.ok) throw new Error(scenario.error);
    const catalogue = scenario ? await buildScenarioCatalogue(scenariosInFolder(contract, scenariosDir), scenario.value) : loadFixtureCatalogue(contract);
    if (!catalogue.ok) throw new Error(catalogue.error);
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const library = createScenarioLibrary({ contract, source: scenariosInFolder(contract, scenariosDir), catalogueLimits: options.catalogueLimits });
    const logger = createLogger({ format: 'json', level: 'info', destination });
    const opened = await openStore({
      ...onTestStore(),
      library,
      start: { scenario: scenario?.value, path: found?.ok ? found.value : undefined, pets: options.pets ?? catalogue.value.pets },
      journalSize: options.journalSize ?? 500,
      maxSessions: options.maxSessions,
      idleMs: options.sessionIdleMs,
      protectMs: options.sessionProtectMs,
      logger,
    });
    store = options.wrapStore ? options.wrapStore(opened) : opened;
    server = await startMockServer({
      port: 0,
      host: options.host,
      apiKeys: options.apiKeys ?? [TEST_KEY],
      adminKey: options.adminKey,
      logger,
      corsOrigins: options.corsOrigins ?? '*',
      contract,
      store,
      library,
      scenariosDir,
      watch: options.watch ?? false,
      sessionPerKey: options.sessionPerKey,
      transport: options.transport,
      streamLifetimeMs: options.streamLifetimeMs,
      ...(options.profileFile !== undefined && { profile: profileFrom(options.profileFile), profileFile: options.profileFile }),
    });
  });

  afterAll(async () => {
    if (!closed) await server?.close();
    // The fidelity check: no response of this file broke the contract.
    expect(failures, 'responses that break the contract document').toEqual([]);
    expect(adminFailures, 'admin API responses that break openapi/mock-admin.yaml').toEqual([]);
  });

  return mock;
}

/**
 * The store this run of the suite uses: memory, or with MOCK_TEST_STORE=redis
 * (the `redis-store` project, vitest.config.ts) the run's Redis, under a key
 * prefix of this mock's own so files never see each other's state.
 */
function onTestStore(): { url?: string; prefix?: string } {
  if (process.env.MOCK_TEST_STORE !== 'redis') return {};
  return { url: inject('redisUrl'), prefix: `test-${randomUUID()}` };
}
