import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Contract } from '../../document/contract.js';
import { createMockApp } from './app.js';
import { packageFiles } from './package-files.js';
import type { ScenarioLibrary } from '../core/scenarios/scenario-library.js';
import { watchScenarios } from '../core/scenarios/watch-scenarios.js';
import { activeProfile } from '../core/profile/active-profile.js';
import type { LoadedProfile } from '../core/profile/checked-profile.js';
import { watchProfile } from '../core/profile/watch-profile.js';
import type { MockStore } from '../core/store/mock-store.js';
import { listen } from './listen.js';
import { SHUTDOWN_GRACE_MS } from '../shutdown-grace.js';
import { createHttpServer } from './transport/create-http-server.js';
import { startProxyMode, type ProxyOptions } from './proxy/start-proxy-mode.js';
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
  contract: Contract;
  /** Where sessions, scenario states, additions and journals live, opened by openStore (core/store/open-store.ts); closed with the server. */
  store: MockStore;
  /** The scenario files the admin API lists and activates, and hot reload watches. */
  library: ScenarioLibrary;
  /** Their folder (`--scenarios`), watched with `watch`. */
  scenariosDir?: string | undefined;
  /** Reload scenarios and the profile when their files change (the command line's default; off here). */
  watch?: boolean;
  /** The choices where the interface is silent (`--profile`); default: the mock's own. A file given is watched as scenarios are. */
  profile?: LoadedProfile | undefined;
  /** The path `--profile` named, to watch; undefined: the shipped default, not watched. */
  profileFile?: string | undefined;
  /** Without `X-Mock-Session`, each bearer key is its own session. */
  sessionPerKey?: boolean | undefined;
  /** Connection bounds and timeouts (`--max-connections`; the others for tests); default DEFAULT_TRANSPORT_LIMITS. */
  transport?: Partial<TransportLimits> | undefined;
  /** `--proxy`: the target, and how long it may take to answer (proxy/proxy-mode.ts). */
  proxy?: ProxyOptions | undefined;
  /** How long `close()` waits for requests in flight (`--shutdown-grace`; default SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number | undefined;
}


export interface RunningMockServer {
  /** The mock's log, for what its command line has to say (a signal received) in the same format. */
  logger: Logger;
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The server's origin, e.g. `http://127.0.0.1:4010`; the admin API is at `/__mock` below it. */
  origin: string;
  port: number;
  /** How long `close()` waits for requests in flight before it closes what is still open. */
  graceMs: number;
  /** Stops accepting connections, lets requests in flight finish, then closes, the store last. */
  close(): Promise<void>;
}

/** Starts the mock on a real port (0 picks a free one), serving from `store`. */
export async function startMockServer(options: MockServerOptions): Promise<RunningMockServer> {
  const { logger, contract, store, library } = options;
  const shutdown = new AbortController();
  const proxy = options.proxy ? await startProxyMode(options.proxy, contract, logger) : undefined;
  const profile = activeProfile(options.profile);
  const app = createMockApp({
    proxy,
    profile,
    contract,
    store,
    apiKeys: options.apiKeys,
    adminKey: options.adminKey,
    bindHost: options.host ?? '127.0.0.1',
    logger,
    corsOrigins: options.corsOrigins ?? '*',
    sessionPerKey: options.sessionPerKey,
    shutdown: shutdown.signal,
    streamLifetimeMs: options.streamLifetimeMs,
    files: packageFiles(),
  });
  const server = createHttpServer(app.fetch, {
    anyOrigin: (options.corsOrigins ?? '*') === '*',
    limits: options.transport,
    onInternalError: (error) => logger.error({ err: error }, 'internal error: the app failed to answer'),
  });
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  const watcher = options.watch && options.scenariosDir !== undefined ? watchScenarios({ dir: options.scenariosDir, library, store, logger }) : undefined;
  const graceMs = options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  const profileWatcher = options.watch && options.profileFile !== undefined ? watchProfile({ file: options.profileFile, profile, logger }) : undefined;
  return {
    logger,
    url: `http://${host}:${port}${contract.basePath}`,
    origin: `http://${host}:${port}`,
    port,
    graceMs,
    close: async () => {
      watcher?.close();
      profileWatcher?.close();
      // Hung requests (a scenario's `hang` fault) would otherwise hold the close for the whole grace period.
      shutdown.abort();
      await closeGracefully(server, logger, graceMs);
      proxy?.close();
      await store.close();
    },
  };
}

/** Stops accepting, lets requests in flight finish; at the end of the shutdown grace period closes what is still open, and says so. */
function closeGracefully(server: Server, logger: Logger, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.error({ graceMs }, `the shutdown grace period of ${graceMs / 1000} s is over: closing the connections still open, their requests unanswered`);
      server.closeAllConnections();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}
