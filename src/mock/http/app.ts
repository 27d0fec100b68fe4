import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Contract } from '../../contract/load-contract.js';
import { errorBody } from '../core/errors.js';
import type { MockEnv } from './mock-env.js';
import { respond, sendError } from './respond.js';
import { bearerKey } from './steps/bearer-key.js';
import { bodySize } from './steps/body-size.js';
import { cors } from './steps/cors.js';
import { deprecation } from './steps/deprecation.js';
import { journalRequests } from './steps/journal.js';
import { requestLog } from './steps/request-log.js';
import { ADMIN_PREFIX, adminRoutes } from './admin/admin-routes.js';
import { preferences } from './steps/preferences.js';
import { petHandlers } from './operations/pet-handlers.js';
import { defaultScenariosDir } from '../core/scenarios/find-scenario.js';
import type { Scenario } from '../core/scenarios/load-scenario.js';
import { scenarioStubs } from './steps/scenario-stubs.js';
import { createScenarioLibrary } from '../core/scenarios/scenario-library.js';
import { session } from './steps/session.js';
import { createSessionRegistry, type SessionRegistry } from '../core/sessions/session-registry.js';
import type { PetStore } from '../core/catalogue/pet-store.js';
import type { Pet } from '../core/catalogue/pet.js';

export interface MockAppOptions {
  contract: Contract;
  store: PetStore;
  apiKeys: readonly string[];
  logger: Logger;
  /** Origins allowed by CORS: `*` (any, the default) or a list. */
  corsOrigins?: '*' | readonly string[];
  /** Largest request body accepted, in bytes. The interface gives none; 1 MiB. */
  maxBodyBytes?: number;
  /** The active scenario at start; its stubs answer before the handlers. None: the handlers alone. Ignored with `sessions`. */
  scenario?: Scenario | undefined;
  /** The sessions (`X-Mock-Session`), each with its scenarios, catalogue and journal; by default ones starting from `store` and `scenario`. */
  sessions?: SessionRegistry | undefined;
  /** Without `X-Mock-Session`, each bearer key is its own session (`--session-per-key`). */
  sessionPerKey?: boolean | undefined;
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
  const { contract, logger, corsOrigins = '*', maxBodyBytes = MiB } = options;
  const base = contract.basePath;
  const app = new Hono<MockEnv>();
  const sessions = options.sessions ?? defaultSessions(options);
  const routes = [...contract.operations.values()].map((operation) => ({ operation, route: base + toHonoPath(operation.path) }));

  const operationRoutes = new Map<string, Map<string, string>>();
  for (const { operation, route } of routes) {
    const methods = operationRoutes.get(route) ?? new Map<string, string>();
    methods.set(operation.method, operation.operationId);
    operationRoutes.set(route, methods);
  }
  app.use('*', journalRequests(sessions, ADMIN_PREFIX, operationRoutes));

  // First, so preflights and every error are logged too.
  if (logger.isLevelEnabled('info')) app.use('*', requestLog(logger));
  app.use(
    '*',
    cors({
      origins: corsOrigins,
      // PUT and DELETE for the admin API.
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session'],
      exposeHeaders: ['Deprecation', 'Sunset', 'Link', 'Location', 'WWW-Authenticate', 'Retry-After', 'Preference-Applied', 'X-Mock-Session'],
      maxAgeSeconds: 600,
    }),
  );

  const secret = randomBytes(32);
  app.use(`${ADMIN_PREFIX}/*`, session({ sessions, perKey: options.sessionPerKey, mode: 'look', apiKeys: options.apiKeys, secret }));
  adminRoutes(app, {
    contract,
    sessions,
    onActivate: (id, name, file) => logger.info({ scenario: name, session: id }, `scenario ${name} active${id === null ? '' : ` in session ${id}`} (${file})`),
  });

  // Deprecation headers go on before auth, so a deprecated operation's 401s carry them too.
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
  // After auth: a request with a bad key starts no session, and 401 wins over a malformed session id.
  app.use(`${base}/*`, session({ sessions, perKey: options.sessionPerKey, mode: 'open', secret }));

  const handlers = petHandlers();
  const limit = bodySize(maxBodyBytes);
  for (const { operation, route } of routes) {
    const handler = handlers[operation.operationId];
    if (!handler) throw new Error(`the mock has no handler for operation ${operation.operationId}`);
    if (operation.body) app.on(operation.method, route, limit);
    // After auth (401 still wins) and the body limit; a request's own Prefer wins over the scenario.
    app.on(operation.method, route, preferences(operation));
    // After auth (401 still wins) and the body limit, before the handler.
    app.on(operation.method, route, scenarioStubs({ operationId: operation.operationId, shutdown: options.shutdown }));
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

/** Sessions that all start from `store` and `scenario`, as a test's or a faulty server's app does. */
function defaultSessions({ contract, store, scenario }: MockAppOptions): SessionRegistry {
  const pets = snapshot(store);
  return createSessionRegistry({
    library: createScenarioLibrary({ contract, dir: defaultScenariosDir() }),
    shared: { scenario, pets, store },
    start: { scenario, pets },
  });
}

/** The animals of a store, for a reset or a new session; a store that cannot list (a test's deliberately broken one) gives none. */
export function snapshot(store: PetStore): Pet[] {
  try {
    return [...store.list({ limit: Number.POSITIVE_INFINITY })];
  } catch {
    return [];
  }
}

/** `/pets/{petId}` → `/pets/:petId` */
const toHonoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
