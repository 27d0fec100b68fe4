import { Hono, type Context } from 'hono';
import type { Log } from '../../core/log/log.js';
import { errorBody } from '../../core/errors.js';
import type { Exchange, MockEnv, Next } from '../exchange.js';
import { sendError } from '../respond.js';
import { internalError } from '../steps/internal-errors.js';
import { adminRouter, type AdminRoutesOptions } from './admin-router.js';
import { consoleRoutes } from './console-routes.js';
import { stubRoutes } from './stub-routes.js';
import { scenarioRoutes } from './scenario-routes.js';
import { journalStreamRoutes } from './journal-stream.js';
import { sessionRoutes } from './session-routes.js';
import { violationRoutes } from './violation-routes.js';
import type { ViolationTally } from '../../core/proxy/violation-tally.js';
import type { ProxyReportFormat } from '../proxy/proxy-report.js';
import type { Recorder } from '../proxy/recorder.js';
import { recordingRoutes } from './recording-routes.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import type { StaticFile } from '../../core/files/static-file.js';

export interface AdminAppOptions extends AdminRoutesOptions {
  logger: Log;
  /** The admin API's steps (pipeline.ts), in front of `answer`. */
  steps: (answer: Next) => Next;
  /** The console files' steps (pipeline.ts): Host and Origin, no key. */
  consoleSteps: (answer: Next) => Next;
  /** The console's files (mock-files.ts); none in an engine without the server. */
  consoleFiles: ReadonlyMap<string, StaticFile>;
  /** A new exchange for a request. */
  exchange: (c: Context<MockEnv>) => Exchange;
  /** Proxy mode's violations (`GET /__mock/violations`); undefined without `--proxy`. */
  violations?: ViolationTally | undefined;
  /** Proxy mode's report of them (`GET /__mock/violations/report`); undefined without `--proxy`. */
  proxyReport?: ((format: ProxyReportFormat) => string) | undefined;
  /** Proxy mode's target, its base as `--proxy` gave it; undefined without `--proxy`. */
  proxyTarget?: string | undefined;
  /** `--record DIR`'s recording (`/__mock/recording`); undefined without it. */
  recorder?: Recorder | undefined;
  /** The profile the API answers by, which health shows. */
  profile: ActiveProfile;
}

/**
 * The admin API under `/__mock`: a local development tool, guarded by its
 * own steps (pipeline.ts, steps/admin-guard/: Host, Origin, the admin key or
 * an API key for writes). Every route acts on the request's session (`X-Mock-Session`, set
 * by the session step), or on the shared default without one. Every answer
 * is JSON but the journal stream's and the QA console's files (console-routes.ts,
 * which need no key); every error the Error body.
 *
 * A Hono app of its own, which the mock's app hands every `/__mock`
 * request: Hono's fast RegExpRouter cannot take its routes
 * (`/scenarios/active` beside `/scenarios/:name/reset`) together with the
 * API's, and in one app every API request paid for the slower TrieRouter.
 */
export function adminApp({ logger, steps, consoleSteps, consoleFiles, exchange, violations, proxyReport, proxyTarget, recorder, profile, ...options }: AdminAppOptions): Hono<MockEnv> {
  const app = new Hono<MockEnv>();
  // Before the admin steps below: a console route answers without calling them (they would ask for the key).
  consoleRoutes(app, { steps: consoleSteps, exchange, files: consoleFiles, methods: options.methods });
  app.use('*', async (c, next) => {
    const x = exchange(c);
    c.set('exchange', x);
    // Made per request (admin requests are few): its last step is this request's Hono `next`.
    const answer = await steps(async () => {
      await next();
      return c.res;
    })(x);
    // Set only when a step answered itself: setting c.res again would make Hono copy the response.
    if (answer !== c.res) c.res = answer;
  });
  const router = adminRouter(app, options.methods);
  scenarioRoutes(router, options);
  stubRoutes(router, options);
  const streams = journalStreamRoutes(router, options);
  sessionRoutes(router, options.store, streams, profile);
  violationRoutes(router, violations, proxyReport, proxyTarget);
  recordingRoutes(router, recorder);
  router.refuseOtherMethods();
  app.notFound((c) => sendError(c.get('exchange'), errorBody('route_not_found', `No route ${c.req.method} ${c.req.path}.`)));
  // What a route throws: Hono catches it before the steps can.
  app.onError((error, c) => internalError(logger, c.get('exchange'), error));
  return app;
}
