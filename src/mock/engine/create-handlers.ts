import { http, type HttpHandler } from 'msw';
import { engineFor, type MockEngine } from './create-mock.js';
import type { CreateMockOptions } from './engine-start.js';
import { escapeRegExp } from '../../shared/escape-reg-exp.js';

/** What `createHandlers` takes: the engine's options, and where the API is. */
export interface HandlersOptions extends CreateMockOptions {
  /** The origin (and any path before `/v1`) the app calls, as `https://api.example.com`; default any origin. */
  baseUrl?: string;
}

/** MSW request handlers answered by one mock engine, and its reset. */
export interface MockHandlers {
  /** For `setupServer(...handlers)`, `setupWorker(...handlers)`, or a story's `msw.use(...handlers)` (msw-storybook-addon). */
  readonly handlers: HttpHandler[];
  /** Back to how the engine was created: for `afterEach`, or a story's own start. */
  reset(): Promise<void>;
  /** The engine, once made: rejects with the Error naming a bad option. */
  readonly ready: Promise<MockEngine>;
}

/**
 * MSW handlers for the API (`/v1/...`) and the admin API (`/__mock/...`),
 * each answered by one mock engine (createMock), made at once and awaited
 * by the first request. They come last in MSW's list as a test adds its
 * own with `server.use(...)`, so a test's override still wins. A bad option
 * rejects `ready`, and every request is answered with the Error naming it.
 */
export function createHandlers(options: HandlersOptions = {}): MockHandlers {
  const { baseUrl, ...engineOptions } = options;
  const ready = engineFor(engineOptions, 'createHandlers');
  // Told through `ready` and each answer; never an unhandled rejection.
  ready.catch(() => undefined);
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    let engine: MockEngine;
    try {
      engine = await ready;
    } catch (error) {
      const body = { code: 'internal_error', message: (error as Error).message, status: 500 };
      return new Response(JSON.stringify(body), { status: 500, headers: { 'content-type': 'application/json' } });
    }
    return engine.fetch(request);
  };
  const origin = baseUrl === undefined ? '[a-z][a-z0-9+.-]*://[^/?#]+' : escapeRegExp(baseUrl.replace(/\/+$/, '').replace(/\/v1$/, ''));
  // The first segment as RFC 3986 names it (§2.3, §6.2.2.2): `/%761/pets` is `/v1/pets`, so a client that
  // percent-encodes it reaches the engine as it reaches the server; MSW's own patterns match it only as written.
  const handlers = [new RegExp(`^${origin}/(?:v|%76)(?:1|%31)(?:[/?#]|$)`, 'i'), new RegExp(`^${origin}/__mock(?:[/?#]|$)`)].map((path) => http.all(path, answer));
  return {
    handlers,
    ready,
    reset: async () => (await ready).reset(),
  };
}

