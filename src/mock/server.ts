import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Logger } from 'pino';
import { loadContract, type Contract } from '../contract/load-contract.js';
import { createMockApp } from './app.js';
import type { ScenarioRuntime } from './scenarios/scenario-engine.js';
import type { PetStore } from './store/pet-store.js';
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
  /** The active scenario (see src/mock/scenarios); none: the handlers alone. */
  scenario?: ScenarioRuntime | undefined;
}

export interface RunningMockServer {
  /** The API's base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  port: number;
  store: PetStore;
  scenario: ScenarioRuntime | undefined;
  /** Stops accepting connections, lets requests in flight finish, then closes. */
  close(): Promise<void>;
}

/** Starts the mock on a real port (0 picks a free one). */
export async function startMockServer(options: MockServerOptions): Promise<RunningMockServer> {
  const contract = options.contract ?? loadContract();
  const shutdown = new AbortController();
  const app = createMockApp({
    contract,
    store: options.store,
    apiKeys: options.apiKeys,
    logger: options.logger,
    corsOrigins: options.corsOrigins ?? '*',
    scenario: options.scenario,
    shutdown: shutdown.signal,
  });
  const errors = transportErrors((options.corsOrigins ?? '*') === '*');
  const server = createServer(getRequestListener(app.fetch, { errorHandler: errors.requestError }));
  server.on('clientError', errors.clientError);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${contract.basePath}`,
    port,
    store: options.store,
    scenario: options.scenario,
    close: () => {
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
