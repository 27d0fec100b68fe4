import { fail, type Result } from '../core/result.js';
import type { StaticFile } from '../core/files/static-file.js';
import type { DocsAssets } from '../core/docs/docs-page.js';


/**
 * The files the mock serves to people, which only its server has: the QA
 * console's and the API reference's renderer (about 1.9 MB). The node
 * server reads them from the package (package-files.ts); an engine in a
 * test or a browser runs without them (`NO_FILES`), and says so.
 */
export interface MockFiles {
  /** The console's files by name; none without the server. */
  console(): ReadonlyMap<string, StaticFile>;
  /** The reference page and its renderer, read when first asked for. */
  docs(title: string): () => Result<DocsAssets>;
}

const NO_DOCS: Result<DocsAssets> = fail(
  'route_not_found',
  "The API reference page is served by the mock's server (animal-store-mock); this engine runs without its renderer. The document it renders is at /docs/openapi.json.",
);

export const NO_FILES: MockFiles = { console: () => new Map(), docs: () => () => NO_DOCS };
