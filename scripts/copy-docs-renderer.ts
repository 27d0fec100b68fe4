/**
 * A build step (`npm run build`): copies the API reference's renderer,
 * swagger-ui-dist's browser bundle and stylesheet with their licence
 * files, into dist/docs-renderer/, which the package ships. The mock
 * serves them at /docs (src/mock/http/docs/). Copied rather than depended
 * on at run time: see renderer-dir.ts. Run from dist:
 * `node dist/scripts/copy-docs-renderer.js`.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RENDERER_FILES, RENDERER_NOTICES, shippedRendererDir } from '../src/mock/core/docs/renderer-dir.js';

const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const to = shippedRendererDir();
mkdirSync(to, { recursive: true });
for (const file of [...RENDERER_FILES, ...RENDERER_NOTICES]) copyFileSync(join(from, file), join(to, file));
