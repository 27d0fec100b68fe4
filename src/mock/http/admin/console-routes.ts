import type { Context, Hono } from 'hono';
import { clip, errorBody } from '../../core/errors.js';
import type { Exchange, MockEnv, Next } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import { ADMIN_PREFIX } from './admin-router.js';
import { sendFile } from '../send-file.js';
import { pageHeaders } from '../page-headers.js';
import type { StaticFile } from '../../core/files/static-file.js';
import type { AdminMethods } from './admin-methods.js';

export interface ConsoleRoutesOptions {
  /** The console files' steps (pipeline.ts `consoleFiles`): Host and Origin, no key. */
  steps: (answer: Next) => Next;
  /** A new exchange for a request. */
  exchange: (c: Context<MockEnv>) => Exchange;
  /** The console's files by name (mock-files.ts); none in an engine without the server. */
  files: ReadonlyMap<string, StaticFile>;
  /** The admin API's table of methods: the console's paths serve GET (and HEAD) only. */
  methods?: AdminMethods;
}

/**
 * The page's own rules, on every file. The page inserts server text with
 * textContent only; the policy is the second line: no inline script or
 * style, nothing from another origin, no frame around it (clickjacking),
 * no form posting anywhere (CSP Level 3). `connect-src 'self'` lets it call
 * the admin API and nothing else; `img-src data:` is for its icon.
 */
export const CONSOLE_HEADERS = pageHeaders(
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
);

const FILES_PREFIX = `${ADMIN_PREFIX}/console/`;
const NO_CONSOLE = errorBody('route_not_found', "The QA console is served by the mock's server (animal-store-mock); this engine runs without its files. The admin API it calls is here.");
const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The QA console: `GET /__mock/` (the page) and `GET /__mock/console/<file>`
 * (its scripts and style), from memory. `/__mock` redirects to `/__mock/`,
 * so the page's relative URLs (`console/console.js`) resolve under it.
 * Registered before the admin API's own steps (admin-app.ts), which they
 * replace: these files hold no data, so they need no key (see pipeline.ts).
 */
export function consoleRoutes(app: Hono<MockEnv>, { steps, exchange, files, methods }: ConsoleRoutesOptions): void {
  const index = files.get('index.html');
  if (!index && files.size > 0) throw new Error(`the console has no index.html (${[...files.keys()].join(', ')})`);

  const redirect = steps((x) => respond(x, 301, null, { location: `${ADMIN_PREFIX}/` }));
  const page = steps((x) => (index ? sendFile(x, index, CONSOLE_HEADERS) : sendError(x, NO_CONSOLE)));
  const file = steps((x) => {
    const name = x.c.req.path.slice(FILES_PREFIX.length);
    const found = files.get(name);
    if (found) return sendFile(x, found, CONSOLE_HEADERS);
    return sendError(x, errorBody('route_not_found', `No console file ${JSON.stringify(clip(name))}; the console's files are ${[...files.keys()].join(', ')}.`));
  });
  const otherMethod = steps((x) => sendError(x, errorBody('method_not_allowed', `${x.c.req.method} is not allowed here; allowed: ${ALLOW}`), { allow: ALLOW }));

  // Hono answers HEAD with the GET route, without the body.
  app.get(ADMIN_PREFIX, (c) => redirect(exchange(c)));
  app.get(`${ADMIN_PREFIX}/`, (c) => page(exchange(c)));
  app.get(`${FILES_PREFIX}*`, (c) => file(exchange(c)));
  for (const path of [ADMIN_PREFIX, `${ADMIN_PREFIX}/`, `${FILES_PREFIX}*`]) {
    methods?.add(path, 'GET');
    app.all(path, (c) => otherMethod(exchange(c)));
  }
}
