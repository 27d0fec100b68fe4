import type { Context, Hono } from 'hono';
import type { Contract } from '../../../document/contract.js';
import { DEFAULT_API_KEY } from '../../../shared/default-api-key.js';
import { DOCS_ASSETS_PATH, DOCS_DOCUMENT_PATH, DOCS_PATH, pageTitle } from '../../core/docs/docs-page.js';
import { referenceDocument } from '../../core/docs/reference-document.js';
import { errorBody } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import type { DocsAssets } from '../../core/docs/docs-page.js';
import { staticFile } from '../../core/files/static-file.js';
import type { Exchange, MockEnv, Next } from '../exchange.js';
import { pageHeaders } from '../page-headers.js';
import { respond, sendError } from '../respond.js';
import { sendFile } from '../send-file.js';

export interface DocsRoutesOptions {
  contract: Contract;
  apiKeys: readonly string[];
  /** The steps of a path outside the API (pipeline.ts `elsewhere`): journal, log, CORS with the methods the path serves; no key. */
  elsewhere: (answer: Next, methods: readonly string[]) => Next;
  exchange: (c: Context<MockEnv>) => Exchange;
  /** The page and its renderer's files, read when first asked for (mock-files.ts). */
  assets: (title: string) => () => Result<DocsAssets>;
}

/**
 * The page's own rules, on top of the steps' headers. The CSP lets it load
 * and call only this mock (so a renderer bug or a crafted document cannot
 * send the key elsewhere); styles inline, as the renderer sets some.
 */
const PAGE_HEADERS = pageHeaders(
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
);
/**
 * What every /docs path serves: one list for a 405's `Allow` (RFC 9110
 * §15.5.6) and the preflight's `Access-Control-Allow-Methods`, as on the
 * API's routes (route-methods.ts), so a browser is not told it may write.
 */
const DOCS_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];
// The names hold a hash of the content (docs-assets.ts): a year, never revalidated (RFC 8246).
const ASSET_HEADERS = { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' };
const DOCUMENT_HEADERS = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };

/**
 * The API reference: `GET /docs`, the document it renders at
 * `/docs/openapi.json`, and the renderer's files under `/docs/assets/`.
 * A page for people, so no key; through the steps of any path outside the
 * API, so journaled and logged like them.
 */
export function serveDocs(app: Hono<MockEnv>, { contract, apiKeys, elsewhere, exchange, assets: assetsOf }: DocsRoutesOptions): void {
  const assets = assetsOf(pageTitle(contract.document));
  const document = staticFile(referenceDocument({
    document: contract.document,
    operations: contract.operations,
    basePath: contract.basePath,
    defaultKey: DEFAULT_API_KEY,
    defaultKeyAccepted: apiKeys.includes(DEFAULT_API_KEY),
  }), 'application/json');

  const answer = elsewhere((x) => {
    const { path, method } = x.c.req;
    // One address for the page: relative links resolve the same way from it.
    if (path === `${DOCS_PATH}/`) return respond(x, 308, null, { location: DOCS_PATH });
    const known = path === DOCS_PATH || path === DOCS_DOCUMENT_PATH || path.startsWith(`${DOCS_ASSETS_PATH}/`);
    if (known && !DOCS_METHODS.includes(method)) {
      const allow = DOCS_METHODS.join(', ');
      return sendError(x, errorBody('method_not_allowed', `${method} is not allowed here; allowed: ${allow}`), { allow });
    }
    if (path === DOCS_DOCUMENT_PATH) return sendFile(x, document, DOCUMENT_HEADERS);
    if (!known) return notFound(x);
    const loaded = assets();
    if (!loaded.ok) return sendError(x, loaded.error);
    if (path === DOCS_PATH) return sendFile(x, loaded.value.page, PAGE_HEADERS);
    // Looked up by name in what was read at the start: no request path ever reaches the file system.
    const found = loaded.value.files.get(path.slice(DOCS_ASSETS_PATH.length + 1));
    return found ? sendFile(x, found, ASSET_HEADERS) : notFound(x);
  }, DOCS_METHODS);
  app.all(DOCS_PATH, (c) => answer(exchange(c)));
  app.all(`${DOCS_PATH}/*`, (c) => answer(exchange(c)));
}

const notFound = (x: Exchange): Response =>
  sendError(x, errorBody('route_not_found', `No file ${x.c.req.path}: the API reference is at ${DOCS_PATH}, the document it renders at ${DOCS_DOCUMENT_PATH}.`));
