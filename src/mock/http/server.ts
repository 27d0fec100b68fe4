import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { loadContract, type Contract } from '../../document/load-contract.js';
import { createMockApp, snapshot } from './app.js';
import { defaultScenariosDir } from '../core/scenarios/find-scenario.js';
import type { Scenario } from '../core/scenarios/load-scenario.js';
import type { MemoryControl } from '../core/scenarios/scenario-control.js';
import type { ScenarioRuntime } from '../core/scenarios/scenario-runtime.js';
import { createScenarioLibrary, type ScenarioLibrary } from '../core/scenarios/scenario-library.js';
import { watchScenarios } from '../core/scenarios/watch-scenarios.js';
import { createSessionRegistry, type SessionRegistry } from '../core/sessions/session-registry.js';
import type { MockStore } from '../core/store/mock-store.js';
import type { ScenarioStart } from '../core/scenarios/scenario-control.js';
import type { PetStore } from '../core/catalogue/pet-store.js';
import type { Pet } from '../core/catalogue/pet.js';
import type { CatalogueLimits } from '../core/catalogue/catalogue-limits.js';
import { listen } from './listen.js';
import { createHttpServer } from './transport/create-http-server.js';
import type { TransportLimits } from './transport/transport-limits.js';

export interface MockServerOptions {
  port?: number;
  host?: string;
  apiKeys: readonly string[];
  /** `--admin-key`: needed on every admin request when set. */
  adminKey?: string | undefined;
  /** How long a journal stream lives before the server ends it (10 minutes; shorter in tests). */
  streamLifetimeMs?: number | undefined;
  logger: Logger;
  corsOrigins?: '*' | readonly string[];
  contract?: Contract;
  /** The catalogue to serve. */
  store: PetStore;
  /** Where sessions, scenario states, additions and journals live (`--store`): `memory` (the default), or a `redis://` / `rediss://` URL. */
  storeUrl?: string | undefined;
  /** `--store-prefix`: the start of every Redis key, so several mocks can share one Redis. */
  storePrefix?: string | undefined;
  /** The scenario active at start (see src/mock/core/scenarios); none: the operations alone. */
  scenario?: Scenario | undefined;
  /** Its file (absolute), for hot reload. */
  scenarioPath?: string | undefined;
  /** The scenarios folder the admin API lists and activates from; default the project's scenarios/. */
  scenariosDir?: string | undefined;
  /** Reload scenarios when their files change (the command line's default; off here). */
  watch?: boolean;
  /** `--fixtures` / `--seed`: this catalogue replaces every scenario's, on activation and reset too. */
  fixedCatalogue?: readonly Pet[] | undefined;
  /** How many requests each journal keeps (default 500). */
  journalSize?: number | undefined;
  /** At most this many sessions (default 100); idle this long (ms), a session ends (default 30 minutes). */
  maxSessions?: number | undefined;
  sessionIdleMs?: number | undefined;
  /** A session used this recently (ms) is not ended to make room (default 60 s). */
  sessionProtectMs?: number | undefined;
  /** Without `X-Mock-Session`, each bearer key is its own session. */
  sessionPerKey?: boolean | undefined;
  /** How much each session may add to its catalogue (default 10,000 animals, 1 MiB of their JSON). */
  catalogueLimits?: CatalogueLimits | undefined;
  /** Connection bounds and timeouts (`--max-connections`; the others for tests); default DEFAULT_TRANSPORT_LIMITS. */
  transport?: Partial<TransportLimits> | undefined;
}

export interface RunningMockServer {
  /** The mock's log, for what its command line has to say (a signal received) in the same format. */
  logger: Logger;
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The server's origin, e.g. `http://127.0.0.1:4010`; the admin API is at `/__mock` below it. */
  origin: string;
  port: number;
  /** Animals in the start catalogue. */
  startPets: number;
  /** The shared default's active catalogue (follows activations and resets). Memory store only. */
  readonly store: PetStore;
  /** The shared default's active scenario: its state and call counts. Memory store only. */
  readonly scenario: ScenarioRuntime | undefined;
  /** The shared default's scenarios. Memory store only. */
  readonly control: MemoryControl;
  /** The store of sessions: in memory, or on Redis. */
  sessions: MockStore;
  /** Stops accepting connections, lets requests in flight finish, then closes. */
  close(): Promise<void>;
}

/** Starts the mock on a real port (0 picks a free one). */
export async function startMockServer(options: MockServerOptions): Promise<RunningMockServer> {
  const { logger } = options;
  const contract = options.contract ?? loadContract();
  const shutdown = new AbortController();
  const library = createScenarioLibrary({
    contract,
    dir: options.scenariosDir ?? defaultScenariosDir(),
    fixedCatalogue: options.fixedCatalogue,
    catalogueLimits: options.catalogueLimits,
  });
  const pets = options.fixedCatalogue ?? snapshot(options.store);
  const start = { scenario: options.scenario, path: options.scenarioPath, pets };
  const sessions = await openStore(options, library, start);
  const app = createMockApp({
    contract,
    store: options.store,
    apiKeys: options.apiKeys,
    adminKey: options.adminKey,
    bindHost: options.host ?? '127.0.0.1',
    logger,
    corsOrigins: options.corsOrigins ?? '*',
    sessions,
    sessionPerKey: options.sessionPerKey,
    shutdown: shutdown.signal,
    streamLifetimeMs: options.streamLifetimeMs,
  });
  const server = createHttpServer(app.fetch, {
    anyOrigin: (options.corsOrigins ?? '*') === '*',
    limits: options.transport,
    onInternalError: (error) => logger.error({ err: error }, 'internal error: the app failed to answer'),
  });
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  const watcher = options.watch ? watchScenarios({ library, sessions, logger }) : undefined;
  return {
    logger,
    url: `http://${host}:${port}${contract.basePath}`,
    origin: `http://${host}:${port}`,
    port,
    startPets: pets.length,
    get store() {
      return inMemory(sessions).shared.control.store;
    },
    get scenario() {
      return inMemory(sessions).shared.control.active().runtime;
    },
    get control() {
      return inMemory(sessions).shared.control;
    },
    sessions,
    close: async () => {
      watcher?.close();
      // Hung requests (a scenario's `hang` fault) would otherwise hold the close for the whole grace period.
      shutdown.abort();
      await closeGracefully(server);
      await sessions.close();
    },
  };
}

/** The store `--store` names, its sessions starting from `start`. */
async function openStore(options: MockServerOptions, library: ScenarioLibrary, start: ScenarioStart): Promise<MockStore> {
  const { logger } = options;
  const limits = {
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    protectMs: options.sessionProtectMs,
    journalSize: options.journalSize,
    onEnd: (id: string, why: 'idle' | 'evicted') => logger.info({ session: id }, `session ${id} ended: ${why === 'idle' ? 'idle too long' : 'the least recently used, to make room'}`),
  };
  const url = options.storeUrl ?? 'memory';
  if (url === 'memory') return createSessionRegistry({ library, shared: { ...start, store: options.store }, start, ...limits });
  // Loaded only here: the Redis client costs the memory store's start about 150 ms and 19 MiB (BENCHMARKS.md).
  const { createRedisStore } = await import('../core/store/redis/create-redis-store.js');
  return createRedisStore({ url, prefix: options.storePrefix ?? 'animal-store-mock', library, shared: start, start, ...limits });
}

/** The memory store, for what only it has (tests reach into the process). */
function inMemory(sessions: MockStore): SessionRegistry {
  if (sessions.kind !== 'memory') throw new Error('only the memory store keeps its state in this process');
  return sessions as SessionRegistry;
}

function closeGracefully(server: Server, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}
