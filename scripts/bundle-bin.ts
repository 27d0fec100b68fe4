/**
 * The last build step (`npm run build`): the mock's command as one module
 * of its own code (dependencies stay in node_modules), written over
 * dist/src/mock/bin.js, its lazily loaded parts (the Redis store, faker, the
 * proxy's recording…) in dist/src/mock/bin-chunks/. Node then reads a few
 * files at start instead of some 250 modules, which halves the start-up
 * (BENCHMARKS.md, "Start-up"). Everything else in dist/ stays as the
 * compiler wrote it, for the entry points and the tests.
 * Run from dist: `node dist/scripts/bundle-bin.js`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/shared/package-root.js';

const dir = join(packageRoot(), 'dist', 'src', 'mock');
rmSync(join(dir, 'bin-chunks'), { recursive: true, force: true });
await build({
  entryPoints: [join(dir, 'bin.js')],
  outdir: dir,
  entryNames: '[name]',
  chunkNames: 'bin-chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  allowOverwrite: true,
  logLevel: 'warning',
});
