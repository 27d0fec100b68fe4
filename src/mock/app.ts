import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Contract } from '../contract/load-contract.js';
import { errorBody } from './errors.js';
import type { MockEnv } from './http/mock-env.js';
import { respond, sendError } from './http/respond.js';
import { bearerKey } from './middleware/bearer-key.js';
import { bodySize } from './middleware/body-size.js';
import { cors } from './middleware/cors.js';
import { deprecation } from './middleware/deprecation.js';
import { requestLog } from './middleware/request-log.js';
import { petHandlers } from './routes/pet-handlers.js';
import { scenarioStubs, type ScenarioRuntime } from './scenarios/scenario-engine.js';
import type { PetStore } from './store/pet-store.js';

export interface MockAppOptions {
  contract: Contract;
  store: PetStore;
  apiKeys: readonly string[];
  logger: Logger;
  /** Origins allowed by CORS: `*` (any, the default) or a list. */
  corsOrigins?: '*' | readonly string[];
  /** Largest request body accepted, in bytes. The interface gives none; 1 MiB. */
  maxBodyBytes?: number;
  /** The active scenario; its stubs answer before the handlers. None, or none with stubs: the handlers alone. */
  scenario?: ScenarioRuntime | undefined;
  /** Aborted when the server shuts down, so scenario hangs end. */
  shutdown?: AbortSignal | undefined;
}

const MiB = 1024 * 1024;

/**
 * The mock as a Hono app. Routes come from the contract document: every
 * documented operation is served at its path under the document's base path
 * (`/v1`) by the handler named after its operationId, and a document with an
 * operation the mock cannot serve does not start.
 */
export function createMockApp(options: MockAppOptions): Hono<MockEnv> {
  const { contract, store, logger, corsOrigins = '*', maxBodyBytes = MiB } = options;
  const base = contract.basePath;
  const app = new Hono<MockEnv>();

  // First, so preflights and every error are logged too.
  if (logger.isLevelEnabled('info')) app.use('*', requestLog(logger));
  app.use(
    '*',
    cors({
      origins: corsOrigins,
      allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: ['Deprecation', 'Sunset', 'Link', 'Location', 'WWW-Authenticate', 'Retry-After'],
      maxAgeSeconds: 600,
    }),
  );

  app.get('/__mock/health', (c) => respond(c, 200, JSON.stringify({ status: 'ok', pets: store.size })));

  // Deprecation headers go on before auth, so a deprecated operation's 401s carry them too.
  const routes = [...contract.operations.values()].map((operation) => ({ operation, route: base + toHonoPath(operation.path) }));
  for (const { operation, route } of routes) {
    if (!operation.deprecated) continue;
    const replacement = operation.replacement ? contract.operations.get(operation.replacement) : undefined;
    app.on(operation.method, route, deprecation({
      operation,
      replacementUrl: replacement ? base + replacement.path : undefined,
      onFirstUse: (message) => logger.warn(message),
    }));
  }

  // Auth comes before validation and routing below, so 401 wins over 400 and 404.
  app.use(`${base}/*`, bearerKey({ keys: options.apiKeys }));

  const handlers = petHandlers(store);
  const limit = bodySize(maxBodyBytes);
  for (const { operation, route } of routes) {
    const handler = handlers[operation.operationId];
    if (!handler) throw new Error(`the mock has no handler for operation ${operation.operationId}`);
    if (operation.body) app.on(operation.method, route, limit);
    // After auth (401 still wins) and the body limit, before the handler; absent when no stub applies.
    const stubs = options.scenario && scenarioStubs({ runtime: options.scenario, operationId: operation.operationId, shutdown: options.shutdown });
    if (stubs) app.on(operation.method, route, stubs);
    app.on(operation.method, route, handler(operation));
  }

  // A documented path with an undocumented method: 405 with Allow (RFC 9110 §15.5.6).
  const allowed = new Map<string, Set<string>>();
  for (const { operation, route } of routes) {
    const methods = allowed.get(route) ?? new Set(['OPTIONS']);
    methods.add(operation.method);
    if (operation.method === 'GET') methods.add('HEAD');
    allowed.set(route, methods);
  }
  for (const [route, methods] of allowed) {
    const allow = [...methods].sort().join(', ');
    app.all(route, (c) =>
      sendError(c, errorBody('method_not_allowed', `${c.req.method} is not allowed here; allowed: ${allow}`), { allow }),
    );
  }

  // The interface says a store orders area exists but shows nothing of it.
  app.all(`${base}/store/orders`, (c) =>
    sendError(c, errorBody('not_implemented', 'The store orders area exists, but the interface does not describe it, so the mock does not serve it.')),
  );

  app.notFound((c) => sendError(c, errorBody('route_not_found', `No route ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    logger.error({ err: error }, `internal error on ${c.req.method} ${c.req.path}`);
    return sendError(c, errorBody('internal_error', 'The mock failed to answer this request; see its log.'));
  });
  return app;
}

/** `/pets/{petId}` → `/pets/:petId` */
const toHonoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
