import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../../shared/package-root.js';

/** The files of swagger-ui-dist the page loads. */
export const RENDERER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;
/** Its licence and notices (Apache-2.0 §4 asks that they travel with it), and those of the code bundled into it. */
export const RENDERER_NOTICES = ['LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'] as const;

/** Where the build copies them (scripts/copy-docs-renderer.ts), inside the package. */
export const shippedRendererDir = (): string => join(packageRoot(), 'dist', 'docs-renderer');

/**
 * The folder holding the renderer's files: the copy the build ships, else
 * (a checkout not built yet, as under vitest) the swagger-ui-dist dev
 * dependency itself. The package ships only the copy: swagger-ui-dist
 * depends on @scarf/scarf, whose install script reports installs, and a
 * user of the mock should not run it.
 */
export function rendererDir(): string | undefined {
  const shipped = shippedRendererDir();
  if (existsSync(join(shipped, RENDERER_FILES[0]))) return shipped;
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}
