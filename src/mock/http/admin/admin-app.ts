import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { errorBody } from '../../core/errors.js';
import type { Exchange, MockEnv, Next } from '../exchange.js';
import { sendError } from '../respond.js';
import { internalError } from '../steps/internal-errors.js';
import { adminRoutes, type AdminRoutesOptions } from './admin-routes.js';

export interface AdminAppOptions extends AdminRoutesOptions {
  logger: Logger;
  /** The admin API's steps (pipeline.ts), in front of `answer`. */
  steps: (answer: Next) => Next;
  /** A new exchange for a request. */
  exchange: (c: Context<MockEnv>) => Exchange;
}

/**
 * The admin API as a Hono app of its own, which the mock's app hands every
 * `/__mock` request. Kept apart because Hono's fast RegExpRouter cannot take
 * its routes (`/scenarios/active` beside `/scenarios/:name/reset`) together
 * with the API's: in one app, every API request paid for the slower
 * TrieRouter.
 */
export function adminApp({ logger, steps, exchange, ...routes }: AdminAppOptions): Hono<MockEnv> {
  const app = new Hono<MockEnv>();
  app.use('*', async (c, next) => {
    const x = exchange(c);
    c.set('exchange', x);
    // Made per request (admin requests are few): its last step is this request's Hono `next`.
    c.res = await steps(async () => {
      await next();
      return c.res;
    })(x);
  });
  adminRoutes(app, routes);
  app.notFound((c) => sendError(c.get('exchange'), errorBody('route_not_found', `No route ${c.req.method} ${c.req.path}.`)));
  // What a route throws: Hono catches it before the steps can.
  app.onError((error, c) => internalError(logger, c.get('exchange'), error));
  return app;
}
