import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Logger } from 'pino';
import { loadContract, type Contract } from '../contract/load-contract.js';
import { createMockApp } from './app.js';
import { createRequestJournal } from './journal/request-journal.js';
import { defaultScenariosDir } from './scenarios/find-scenario.js';
import { createScenarioControl, type ScenarioControl } from './scenarios/scenario-control.js';
import type { ScenarioRuntime } from './scenarios/scenario-engine.js';
import { watchScenarios } from './scenarios/watch-scenarios.js';
import type { PetStore } from './store/pet-store.js';
import type { Pet } from './store/pet.js';
import { listen } from './http/listen.js';
import { transportErrors } from './http/transport-errors.js';

export interface MockServerOptions {
  port?: number;
  host?: string;
  apiKeys: readonly string[];
  logger: Logger;
  corsOrigins?: '*' | readonly string[];
  contract?: Contract;
  /** The catalogue to serve. */
  store: PetStore;
  /** The scenario active at start (see src/mock/scenarios); none: the handlers alone. */
  scenario?: ScenarioRuntime | undefined;
  /** Its file (absolute), for hot reload. */
  scenarioPath?: string | undefined;
  /** The scenarios folder the admin API lists and activates from; default the project's scenarios/. */
  scenariosDir?: string | undefined;
  /** Reload the active scenario when its file changes (the command line's default; off here). */
  watch?: boolean;
  /** `--fixtures` / `--seed`: this catalogue replaces every scenario's, on activation and reset too. */
  fixedCatalogue?: readonly Pet[] | undefined;
  /** How many requests the journal keeps (default 500). */
  journalSize?: number;
}

export interface RunningMockServer {
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The server's origin, e.g. `http://127.0.0.1:4010`; the admin API is at `/__mock` below it. */
  origin: string;
  port: number;
  /** The active catalogue (follows activations and resets). */
  readonly store: PetStore;
  /** The active scenario's state and call counts. */
  readonly scenario: ScenarioRuntime | undefined;
  control: ScenarioControl;
  /** Stops accepting connections, lets requests in flight finish, then closes. */
  close(): Promise<void>;
}

/** Starts the mock on a real port (0 picks a free one). */
export async function startMockServer(options: MockServerOptions): Promise<RunningMockServer> {
  const contract = options.contract ?? loadContract();
  const shutdown = new AbortController();
  const control = createScenarioControl({
    contract,
    dir: options.scenariosDir ?? defaultScenariosDir(),
    logger: options.logger,
    store: options.store,
    scenario: options.scenario,
    scenarioPath: options.scenarioPath,
    fixedCatalogue: options.fixedCatalogue,
  });
  const app = createMockApp({
    contract,
    store: options.store,
    apiKeys: options.apiKeys,
    logger: options.logger,
    corsOrigins: options.corsOrigins ?? '*',
    control,
    journal: createRequestJournal(options.journalSize),
    shutdown: shutdown.signal,
  });
  const errors = transportErrors((options.corsOrigins ?? '*') === '*');
  const server = createServer(getRequestListener(app.fetch, { errorHandler: errors.requestError }));
  server.on('clientError', errors.clientError);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  const watcher = options.watch ? watchScenarios(control, options.logger) : undefined;
  return {
    url: `http://${host}:${port}${contract.basePath}`,
    origin: `http://${host}:${port}`,
    port,
    get store() {
      return control.store;
    },
    get scenario() {
      return control.runtime;
    },
    control,
    close: () => {
      watcher?.close();
      // Hung requests (a scenario's `hang` fault) would otherwise hold the close for the whole grace period.
      shutdown.abort();
      return closeGracefully(server);
    },
  };
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
