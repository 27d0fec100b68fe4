import { Hono, type Context } from 'hono';
import type { Log } from '../core/log/log.js';
import type { Contract } from '../../document/contract.js';
import { errorBody, profiledError } from '../core/errors.js';
import type { MockStore } from '../core/store/mock-store.js';
import { adminApp } from './admin/admin-app.js';
import { serveDocs } from './docs/docs-routes.js';
import { ADMIN_PREFIX } from './admin/admin-router.js';
import { newExchange, type Answer, type Exchange, type MockEnv } from './exchange.js';
import { servedOperations } from './operations/served-operations.js';
import { pipeline, type Pipeline } from './pipeline.js';
import { routeMethods } from './route-methods.js';
import { sendError } from './respond.js';
import { adminMethods } from './admin/admin-methods.js';
import { internalError } from './steps/internal-errors.js';
import type { ProxyMode } from './proxy/proxy-mode.js';
import { activeProfile, type ActiveProfile } from '../core/profile/active-profile.js';
import { NO_FILES, type MockFiles } from './mock-files.js';

export interface MockAppOptions {
  contract: Contract;
  /** Where sessions (`X-Mock-Session`), their scenarios, catalogues and journals live, in memory or on Redis (core/store/open-store.ts). */
  store: MockStore;
  apiKeys: readonly string[];
  /** `--admin-key`: every admin request needs it; without one, admin writes need an API key. */
  adminKey?: string | undefined;
  /** The address the server binds: on a loopback one the admin API checks Host (DNS rebinding); none for an engine called in-process, which no web page can reach by a name. */
  bindHost?: string | undefined;
  logger: Log;
  /** Origins allowed by CORS: `*` (any, the default) or a list. */
  corsOrigins?: '*' | readonly string[];
  /** Largest request body accepted, in bytes. The interface gives none; 1 MiB. */
  maxBodyBytes?: number;
  /** Without `X-Mock-Session`, each bearer key is its own session (`--session-per-key`). */
  sessionPerKey?: boolean | undefined;
  /** Aborted when the server shuts down, so scenario hangs end. */
  shutdown?: AbortSignal | undefined;
  /** How long a journal stream lives (journal-stream.ts). */
  streamLifetimeMs?: number | undefined;
  /** `--proxy`: requests under the API that no stub answers go to the target (proxy/proxy-mode.ts). */
  proxy?: ProxyMode | undefined;
  /** The choices where the interface is silent (`--profile`); default: the mock's own (profiles/default.yaml). */
  profile?: ActiveProfile | undefined;
  /** The console's and the API reference's files: the node server reads them from the package (package-files.ts); none by default. */
  files?: MockFiles | undefined;
}

const MiB = 1024 * 1024;

/**
 * The mock as a Hono app. Routes come from the contract document: every
 * documented operation is served at its path under the document's base path
 * (`/v1`) by the file of `operations/` named after its operationId, and a document with an
 * operation the mock cannot serve does not start.
 */
export function createMockApp(options: MockAppOptions): Hono<MockEnv> {
  const { contract, logger } = options;
  const base = contract.basePath;
  const app = new Hono<MockEnv>();
  const { store } = options;
  const profile = options.profile ?? activeProfile();
  const files = options.files ?? NO_FILES;
  // A request's exchange, in the shared session until the session step picks another.
  const exchangeOf = (c: Context<MockEnv>, operationId: string | null = null): Exchange => newExchange(c, operationId, store.shared);
  const adminRoutes = adminMethods();
  const steps = pipeline({
    adminMethods: adminRoutes,
    store,
    logger,
    apiKeys: options.apiKeys,
    adminKey: options.adminKey,
    bindHost: options.bindHost,
    corsOrigins: options.corsOrigins ?? '*',
    maxBodyBytes: options.maxBodyBytes ?? MiB,
    sessionPerKey: options.sessionPerKey,
    replacementUrl: (operation) => {
      const replacement = operation.replacement ? contract.operations.get(operation.replacement) : undefined;
      return replacement ? base + replacement.path : undefined;
    },
    shutdown: options.shutdown,
    proxy: options.proxy,
    profile,
  });
  const routes = [...contract.operations.values()].map((operation) => ({ operation, route: base + toHonoPath(operation.path) }));
  const methods = routeMethods(routes);

  // The admin API, a Hono app of its own (see admin-app.ts).
  const admin = adminApp({
    contract,
    store,
    sessionPerKey: options.sessionPerKey,
    logger,
    steps: steps.admin,
    consoleSteps: steps.consoleFiles,
    consoleFiles: files.console(),
    methods: adminRoutes,
    exchange: (c) => exchangeOf(c),
    shutdown: options.shutdown,
    streamLifetimeMs: options.streamLifetimeMs,
    adminKeySet: options.adminKey !== undefined,
    violations: options.proxy?.violations,
    proxyReport: options.proxy && ((format) => (options.proxy as ProxyMode).report(format)),
    proxyTarget: options.proxy?.target,
    recorder: options.proxy?.recording,
    profile,
    onActivate: (id, name, file) => logger.info({ scenario: name, session: id }, `scenario ${name} active${id === null ? '' : ` in session ${id}`} (${file})`),
  });
  const toAdmin = (c: Context<MockEnv>): Response | Promise<Response> => admin.fetch(c.req.raw, c.env);
  // `/__mock/*` matches `/__mock` itself too.
  app.all(`${ADMIN_PREFIX}/*`, toAdmin);

  // The API reference for people (docs/docs-routes.ts): outside the API, no key.
  serveDocs(app, { contract, apiKeys: options.apiKeys, elsewhere: steps.elsewhere, exchange: (c) => exchangeOf(c), assets: files.docs });

  // Each documented operation: a handler that runs every step (pipeline.ts), by route and method.
  const served = new Map<string, Map<string, Handler>>();
  for (const { operation, route } of routes) {
    const factory = servedOperations[operation.operationId];
    if (!factory) throw new Error(`the mock has no handler for operation ${operation.operationId}`);
    const operationServed = factory(operation, { logger, basePath: base, profile });
    const run = steps.operation(operation, operationServed, methods.get(route) ?? []);
    const { operationId } = operation;
    const byMethod = served.get(route) ?? new Map<string, Handler>();
    byMethod.set(operation.method, (c) => run(exchangeOf(c, operationId)));
    served.set(route, byMethod);
  }

  serveRoutes(app, steps, { methods, served, exchange: exchangeOf });
  refuseTheRest(app, steps, { base, profile, exchange: exchangeOf });
  // Only for a fault of Hono's own: every route's steps catch what they throw (steps/internal-errors.ts).
  app.onError((error, c) => internalError(logger, exchangeOf(c), error));
  return app;
}

type Handler = (c: Context<MockEnv>) => Answer;

/**
 * One Hono route per documented path, answering by method: its operations,
 * HEAD as its GET (RFC 9110 §9.3.2), and any other method a 405 with Allow
 * (RFC 9110 §15.5.6), preflights included. One route, not one per method
 * plus a catch-all: two routes matching one request make Hono compose them
 * asynchronously, which cost getPet about a twentieth of its CPU.
 */
function serveRoutes(
  app: Hono<MockEnv>,
  steps: Pipeline,
  { methods, served, exchange: exchangeOf }: { methods: ReadonlyMap<string, readonly string[]>; served: ReadonlyMap<string, ReadonlyMap<string, Handler>>; exchange: (c: Context<MockEnv>) => Exchange },
): void {
  for (const [route, allowed] of methods) {
    const allow = allowed.join(', ');
    const refuse = steps.underApi((x) => sendError(x, errorBody('method_not_allowed', `${x.c.req.method} is not allowed here; allowed: ${allow}`), { allow }), allowed);
    const byMethod = served.get(route) ?? new Map<string, Handler>();
    app.all(route, (c) => {
      const { method } = c.req;
      const handler = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
      return handler ? handler(c) : refuse(exchangeOf(c));
    });
  }
}

/** Every other request: the store orders area, no route at all (under the base, the active profile's `unknown-path` answer). */
function refuseTheRest(
  app: Hono<MockEnv>,
  steps: Pipeline,
  { base, profile, exchange: exchangeOf }: { base: string; profile: ActiveProfile; exchange: (c: Context<MockEnv>) => Exchange },
): void {
  // The interface says a store orders area exists but shows nothing of it.
  const orders = steps.underApi((x) =>
    sendError(x, errorBody('not_implemented', 'The store orders area exists, but the interface does not describe it, so the mock does not serve it.')),
  );
  app.all(`${base}/store/orders`, (c) => orders(exchangeOf(c)));

  const noRoute = (x: Exchange): Response => sendError(x, errorBody('route_not_found', noRouteMessage(x)));
  const noApiRoute = steps.underApi((x) => sendError(x, profiledError(profile.choices['unknown-path'], noRouteMessage(x))));
  const noOtherRoute = steps.elsewhere(noRoute);
  app.notFound((c) => {
    const { path } = c.req;
    return (path === base || path.startsWith(`${base}/`) ? noApiRoute : noOtherRoute)(exchangeOf(c));
  });
}

const noRouteMessage = (x: Exchange): string => `No route ${x.c.req.method} ${x.c.req.path}.`;

/** `/pets/{petId}` → `/pets/:petId` */
const toHonoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
