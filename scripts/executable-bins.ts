/**
 * A build step (`npm run build`): makes the package's commands executable.
 * npm sets the execute bit on a `bin` when it installs a package, but the
 * compiler and the bundler write dist/ afresh without it, so in a clone,
 * after any rebuild, `npx animal-store-contract` (or node_modules/.bin's
 * link) would answer "Permission denied". Run from dist:
 * `node dist/scripts/executable-bins.js`.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/shared/package-root.js';

const root = packageRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
for (const file of Object.values(manifest.bin)) {
  const path = join(root, file);
  // Read, write as it was; execute for whoever may read it (0o644 becomes 0o755).
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, mode | ((mode & 0o444) >> 2));
}
