import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, found by walking up from this file to the first
 * folder holding a package.json. Works the same from `src/` (vitest) and from
 * `dist/src/` (the built CLI), whose depths differ.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const defaultDocumentPath = (): string => join(packageRoot(), 'openapi', 'animal-store.yaml');

/** The package's version, from its package.json (the mock's --version, the harness's HTML report). */
export const packageVersion = (): string => (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
