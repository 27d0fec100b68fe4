import type { Log } from '../core/log/log.js';
import type { OperationSpec } from '../../document/operations.js';
import type { MockStore } from '../core/store/mock-store.js';
import { chain, type Next, type Step } from './exchange.js';
import { NO_METHODS } from './route-methods.js';
import { serveOperation, type ServedOperation } from './operations/served-operation.js';
import { adminCredentials } from './steps/admin-guard/admin-credentials.js';
import { adminHost } from './steps/admin-guard/admin-host.js';
import { adminFetchSite } from './steps/admin-guard/admin-fetch-site.js';
import { adminOrigin } from './steps/admin-guard/admin-origin.js';
import { profiledUnauthorized } from './auth/bearer-credentials.js';
import { bearerKey } from './steps/bearer-key.js';
import { profiledBodyLimit } from '../core/profile/profiled-body-limit.js';
import { profiledChunkedRefusal } from './steps/profiled-chunked-refusal.js';
import { profiledUnknownQuery } from './steps/profiled-unknown-query.js';
import { profiledNotAcceptable } from './steps/profiled-not-acceptable.js';
import { bodySize } from './steps/body-size.js';
import { cors } from './steps/cors.js';
import { warnUnlistedOrigins } from './unlisted-origins.js';
import { deprecation } from './steps/deprecation.js';
import { internalErrors, logStoreOutage } from './steps/internal-errors.js';
import { journalRequests } from './steps/journal.js';
import { preferences } from './steps/preferences.js';
import { requestLog } from './steps/request-log.js';
import { scenarioStubs } from './steps/scenario-stubs.js';
import { sessionStubs } from './steps/session-stubs.js';
import type { AdminMethods } from './admin/admin-methods.js';
import { session } from './steps/session.js';
import type { ProxyMode } from './proxy/proxy-mode.js';
import { FALLBACK_HEADER } from './proxy/fallback-header.js';
import type { ActiveProfile } from '../core/profile/active-profile.js';

export interface PipelineOptions {
  store: MockStore;
  logger: Log;
  apiKeys: readonly string[];
  /** `--admin-key`: needed on every admin request when set. */
  adminKey: string | undefined;
  /** The address the server binds (`--host`): on a loopback one the admin API checks Host. */
  bindHost: string | undefined;
  corsOrigins: '*' | readonly string[];
  maxBodyBytes: number;
  sessionPerKey: boolean | undefined;
  /** Where a deprecated operation's replacement is served, by operationId (for its `Link`). */
  replacementUrl: (operation: OperationSpec) => string | undefined;
  /** Aborted when the server shuts down, so scenario hangs end. */
  shutdown: AbortSignal | undefined;
  /** The admin API's paths and their methods (admin/admin-methods.ts), for its preflights. */
  adminMethods: AdminMethods;
  /** `--proxy`: what no stub or preference answers under the API goes to the target (proxy/proxy-mode.ts). */
  proxy?: ProxyMode | undefined;
  /** The choices where the interface is silent: the API's 401 codes among them. */
  profile: ActiveProfile;
}

/**
 * The steps of a documented operation, in the order a request passes them:
 * operation() builds its chain from this list (docs/contributing.md states
 * the order, and a test holds the guide to it). A name that has no step in
 * a configuration (the log when quiet, the body limit in proxy mode or for
 * an operation without a body) is passed over.
 */
export const OPERATION_STEPS = [
  'journal',
  'log',
  'internal errors',
  'CORS',
  'deprecation',
  'auth',
  'session',
  'unknown query',
  'not acceptable',
  'chunked refusal',
  'body limit',
  'Prefer',
  'session stubs',
  'scenario stubs',
] as const;
type OperationStep = (typeof OPERATION_STEPS)[number];

/** The chains of steps a request can pass through, one per kind of route (see app.ts). */
export interface Pipeline {
  /** `methods`: what the operation's route serves (route-methods.ts), for its preflights. */
  operation(operation: OperationSpec, served: ServedOperation<unknown>, methods: readonly string[]): Next;
  /** Another path under the API's base path (405, 501, no route): it still needs a key. A preflight is told `methods` (default: OPTIONS alone). */
  underApi(answer: Next, methods?: readonly string[]): Next;
  /** A path outside the API and the admin API. */
  elsewhere(answer: Next, methods?: readonly string[]): Next;
  /** The admin API: its own guard, no journal of its own; `answer` runs its Hono route. */
  admin(answer: Next): Next;
  /** The console's static files (`/__mock/`): the admin API's Host and Origin checks, no key, no session. */
  consoleFiles(answer: Next): Next;
}

/**
 * The order of the steps every request passes through, in one place.
 *
 *   journal → log → internal errors → CORS                 every request but the admin API's
 *     → deprecation → auth → session                        the API (deprecation: where it applies)
 *     → unknown query → not acceptable → chunked → body limit   as the profile says (the last two: createPet)
 *     → Prefer → scenario stubs → the operation            a documented operation
 *     (proxy mode: … → session → Prefer → stubs → the target, for every path under the API)
 *   log → internal errors → Host → Origin and CORS         the admin API (Host: on a loopback bind)
 *     → Fetch Metadata → admin key, or an API key → session  (the console's files: up to Origin and CORS)
 *
 * - The journal and the log come first, so preflights, refusals and
 *   internal errors are recorded with the answer the client got.
 * - CORS answers any preflight before auth, as a preflight carries no key.
 * - Deprecation headers go on before auth, so a deprecated operation's 401s carry them too.
 * - Auth comes before the session (a request with a bad key starts no
 *   session, and 401 wins over a malformed session id), and before
 *   validation and routing, so 401 wins over 400, 404 and 405.
 * - A request's own `Prefer` comes before the scenario's stubs: what a
 *   request asks of itself wins over the active scenario.
 * - The admin API's Host check comes before its Origin check: a same-origin
 *   request is told by its Origin matching the Host, which only a checked
 *   Host makes trustworthy (DNS rebinding is a "same-origin" attack).
 * - Its Origin check answers preflights before the key check, as a
 *   preflight carries no key; and a foreign origin is refused whatever key
 *   it sends: a frontend's API key is no secret from the pages it serves.
 * - Its Fetch Metadata check (no-cors, cross-site) comes after Origin,
 *   whose CORS headers answer preflights, and before the key: a foreign
 *   page's no-cors GET carries no Origin and, without --admin-key, no key either.
 * - Its key check comes before the session, as on the API: 401 wins over a
 *   malformed session id, and a refused request picks no session. With an
 *   admin key, the bearer key names no session (it is the admin's, not a
 *   client's); X-Mock-Session does.
 * - The console's files (`GET /__mock/`, `/__mock/console/…`) pass the
 *   Host and Origin checks but not the key: a browser's navigation cannot
 *   send a bearer key, and the files hold no data (the page is the same for
 *   everyone). Everything the page shows or changes it asks of the admin
 *   API, with the key the user types, under the admin API's own rules.
 */
export function pipeline(options: PipelineOptions): Pipeline {
  const { store, logger, apiKeys, sessionPerKey: perKey } = options;
  const { secret } = store;
  const logged = logger.isLevelEnabled('info');
  const log: Step[] = logged ? [requestLog(logger)] : [];
  const errors = internalErrors(logger);
  const onUnlisted = options.corsOrigins === '*' ? undefined : warnUnlistedOrigins(logger, options.corsOrigins);
  // A route's preflight lists what it serves: its CORS headers are built once per route, when the app is made.
  const corsFor = (methods: readonly string[]): Step =>
    cors({
      origins: options.corsOrigins,
      allowMethods: methods,
      allowHeaders: ['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session'],
      exposeHeaders: ['Deprecation', 'Sunset', 'Link', 'Location', 'WWW-Authenticate', 'Retry-After', 'Preference-Applied', 'X-Mock-Session', FALLBACK_HEADER],
      maxAgeSeconds: 600,
      onUnlisted,
    });
  const edge = (methods: readonly string[]): Step[] => [...log, errors, corsFor(methods)];
  const journal = journalRequests(store.anonymous, (error) => logStoreOutage(logger, error));
  const { proxy } = options;
  // Proxy mode without --upstream-key: the target judges the client's key, so the mock does not.
  const keyCheck = proxy && !proxy.ownKeys ? [] : [bearerKey({ keys: apiKeys, refuse: profiledUnauthorized(options.profile) })];
  const openSession = session({ store, perKey, mode: 'open', secret });
  const auth = [...keyCheck, openSession];
  // Proxy mode streams bodies to the target, which judges their size; a stub that matches on the body reads it (scenario-stubs.ts).
  const chunkedRefusal = proxy ? [] : [profiledChunkedRefusal(options.profile)];
  const bodyLimit = proxy ? [] : [bodySize(profiledBodyLimit(options.profile, options.maxBodyBytes))];
  const orTarget = (answer: Next): Next => (proxy ? proxy.forward(answer) : answer);
  const host = adminHost(options.bindHost);
  const adminGuard = [
    // Reads of the admin API (health checks, the console's polls and files) are logged at debug, changes at info (request-log.ts).
    ...(logged ? [requestLog(logger, (x) => x.c.req.method === 'GET' || x.c.req.method === 'HEAD')] : []),
    internalErrors(logger),
    ...(host ? [host] : []),
    adminOrigin(options.corsOrigins, options.adminMethods.at),
  ];
  const adminSteps = [
    ...adminGuard,
    // Not the console's files': a page's stylesheet is fetched no-cors.
    adminFetchSite(options.corsOrigins),
    adminCredentials({ adminKey: options.adminKey, apiKeys }),
    session({ store, perKey, mode: 'look', apiKeys, secret, asAdmin: options.adminKey !== undefined }),
  ];

  return {
    operation(operation, served, methods) {
      const named: Record<OperationStep, Step[]> = {
        journal: [journal],
        log,
        'internal errors': [errors],
        CORS: [corsFor(methods)],
        deprecation: operation.deprecated
          ? [deprecation({ operation, replacementUrl: options.replacementUrl(operation), onFirstUse: (message) => logger.warn(message), choice: () => options.profile.choices.deprecation })]
          : [],
        auth: keyCheck,
        session: [openSession],
        // Proxy mode: the target judges the request.
        'unknown query': proxy ? [] : [profiledUnknownQuery(operation, options.profile)],
        'not acceptable': proxy ? [] : [profiledNotAcceptable(options.profile)],
        'chunked refusal': operation.body ? chunkedRefusal : [],
        'body limit': operation.body ? bodyLimit : [],
        Prefer: [preferences(operation, served)],
        'session stubs': [sessionStubs({ operationId: operation.operationId, shutdown: options.shutdown })],
        'scenario stubs': [scenarioStubs({ operationId: operation.operationId, shutdown: options.shutdown })],
      };
      return chain(
        OPERATION_STEPS.flatMap((name) => named[name]),
        orTarget(serveOperation(served)),
      );
    },
    underApi: (answer, methods = NO_METHODS) => chain([journal, ...edge(methods), ...auth], orTarget(answer)),
    elsewhere: (answer, methods = NO_METHODS) => chain([journal, ...edge(methods)], answer),
    admin: (answer) => chain(adminSteps, answer),
    consoleFiles: (answer) => chain(adminGuard, answer),
  };
}
