import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { contentHash } from '../files/content-hash.js';
import { contentTypeOf } from '../files/content-type.js';
import { staticFile, type StaticFile } from '../files/static-file.js';
import { fail, ok, type Result } from '../result.js';
import type { DocsAssets } from './docs-page.js';
import { DOCS_ASSETS_PATH, DOCS_INIT_SCRIPT, docsPage } from './docs-page.js';
import { rendererDir, RENDERER_FILES } from './renderer-dir.js';


/**
 * Reads the renderer's files once, on the first request for /docs, and
 * keeps them (about 1.9 MB, whatever the requests; nothing is read from
 * disk by a request's path, so no path can reach another file). Each is
 * served under a name holding a hash of its content, so it can be cached
 * for good: a new renderer comes with new names.
 */
export function docsAssets(title: string, dir: () => string | undefined = rendererDir): () => Result<DocsAssets> {
  let loaded: Result<DocsAssets> | undefined;
  return () => (loaded ??= load(title, dir()));
}

function load(title: string, dir: string | undefined): Result<DocsAssets> {
  if (dir === undefined) return missing('swagger-ui-dist is not installed');
  const files = new Map<string, StaticFile>();
  const add = (file: string, body: Uint8Array): string => {
    const ext = extname(file);
    const name = `${file.slice(0, -ext.length)}.${contentHash(body)}${ext}`;
    files.set(name, staticFile(body, contentTypeOf(file) ?? 'application/octet-stream'));
    return `${DOCS_ASSETS_PATH}/${name}`;
  };
  const [bundleFile, cssFile] = RENDERER_FILES;
  let bundle: string;
  let css: string;
  try {
    bundle = add(bundleFile, readFileSync(join(dir, bundleFile)));
    css = add(cssFile, readFileSync(join(dir, cssFile)));
  } catch (error) {
    return missing((error as Error).message);
  }
  const init = add('docs-init.js', new TextEncoder().encode(DOCS_INIT_SCRIPT));
  const page = new TextEncoder().encode(docsPage({ title, css, bundle, init }));
  return ok({ page: staticFile(page, contentTypeOf('index.html') as string), files });
}

const missing = (why: string): Result<DocsAssets> =>
  fail('service_unavailable', `The API reference's renderer files cannot be read (${why}); npm run build copies them into dist/docs-renderer/.`);
