import { escapeHtml } from '../../../shared/html-escape.js';
import type { StaticFile } from '../files/static-file.js';

/** The API reference's page and the files it loads, by their name under /docs/assets/. */
export interface DocsAssets {
  page: StaticFile;
  files: ReadonlyMap<string, StaticFile>;
}

/** Where the API reference lives: the page, its document, its files. */
export const DOCS_PATH = '/docs';
export const DOCS_DOCUMENT_PATH = `${DOCS_PATH}/openapi.json`;
export const DOCS_ASSETS_PATH = `${DOCS_PATH}/assets`;

/**
 * The script that starts the renderer, served as a file of its own so the
 * page's Content-Security-Policy can forbid inline scripts.
 * - `validatorUrl: null`: by default swagger-ui sends the document to
 *   validator.swagger.io for a badge; the page must reach no other host.
 * - `queryConfigEnabled: false`: `?url=` or `?configUrl=` in the page's
 *   address could otherwise make it render, and try, a document from
 *   elsewhere.
 * - `tryItOutEnabled`: the point of the page is trying the mock.
 */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCS_DOCUMENT_PATH)},
  dom_id: '#swagger-ui',
  validatorUrl: null,
  queryConfigEnabled: false,
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** The page: the renderer's stylesheet and scripts, by the URLs they are served at. */
export function docsPage(urls: { title: string; css: string; bundle: string; init: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(urls.title)}: reference (mock)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${urls.css}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${urls.bundle}"></script>
<script src="${urls.init}"></script>
</body>
</html>
`;
}

/**
 * The document's `info.title` as the tab's title. The mock starts on a
 * document whose `info` lacks a title or holds a number there (it reads
 * only paths, servers and schemas), and the page must still be served.
 */
export function pageTitle(document: unknown): string {
  const title = (document as { info?: { title?: unknown } } | undefined)?.info?.title;
  return typeof title === 'string' && title.trim() !== '' ? title : 'API';
}
