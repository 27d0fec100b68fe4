import type { Context, Handler, Hono, MiddlewareHandler } from 'hono';
import type { Contract } from '../../../document/contract.js';
import { errorBody } from '../../core/errors.js';
import type { MockStore, Session } from '../../core/store/mock-store.js';
import type { Exchange, MockEnv, Step } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import type { AdminMethods } from './admin-methods.js';

export const ADMIN_PREFIX = '/__mock';

type AdminContext = Context<MockEnv>;

export interface AdminRoutesOptions {
  contract: Contract;
  store: MockStore;
  /** `--session-per-key`: who owns a session an activation opens (sessions/session-access.ts). */
  sessionPerKey?: boolean | undefined;
  /** Aborted when the server shuts down: journal streams end then. */
  shutdown?: AbortSignal | undefined;
  /** How long a journal stream lives (journal-stream.ts). */
  streamLifetimeMs?: number | undefined;
  /** `--admin-key` is set (journal streams are then not held to a share per client). */
  adminKeySet?: boolean | undefined;
  /** Told of every activation, as `scenario <name> active (<file>)`. */
  onActivate?: (session: string | null, name: string, file: string) => void;
  /** Each admin path's methods, filled as routes are registered; its preflights read it (admin-methods.ts). */
  methods: AdminMethods;
}

/** Registers admin routes under `/__mock`, remembering each path's methods for its 405s. */
export interface AdminRouter {
  on(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, ...handlers: Array<Handler<MockEnv> | MiddlewareHandler<MockEnv>>): void;
  /** A known path with another method: 405 with Allow (RFC 9110 §15.5.6), as the API's own paths do. Call last. */
  refuseOtherMethods(): void;
}

export function adminRouter(app: Hono<MockEnv>, table: AdminMethods): AdminRouter {
  const paths = new Set<string>();
  return {
    on(method, path, ...handlers) {
      const full = ADMIN_PREFIX + path;
      paths.add(full);
      table.add(full, method);
      app.on(method, full, ...(handlers as [Handler<MockEnv>]));
    },
    refuseOtherMethods() {
      for (const path of paths) {
        // The same list its preflights give (admin-methods.ts).
        const allow = table.at(path).join(', ');
        app.all(path, (c) => sendError(exchange(c), errorBody('method_not_allowed', `${c.req.method} is not allowed here; allowed: ${allow}`), { allow }));
      }
    },
  };
}

/** The request's exchange, made by the admin API's steps (admin-app.ts). */
export const exchange = (c: AdminContext): Exchange => c.get('exchange');
/** The request's session (`X-Mock-Session`), or the shared default. */
export const sessionOf = (c: AdminContext): Session => exchange(c).session;
export const json = (c: AdminContext, status: number, body: unknown): Response => respond(exchange(c), status, JSON.stringify(body));

/** A step in front of one admin route. */
export const asMiddleware =
  (step: Step): MiddlewareHandler<MockEnv> =>
  async (c, next) => {
    const answer = await step(exchange(c), async () => {
      await next();
      return c.res;
    });
    // Set only when the step answered itself: setting c.res again would make Hono copy the response.
    if (answer !== c.res) c.res = answer;
  };
