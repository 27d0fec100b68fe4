/**
 * A fresh npm project that depends on a packed tarball of this package and
 * can be installed with `npm install --offline`, from the npm cache alone.
 *
 * Why a lockfile: `npm ci` on this machine filled the cache with the
 * dependencies' tarballs (looked up by the lockfile's `integrity`), not
 * with their registry documents (packuments). Without a lockfile, npm has
 * to resolve `ajv@^8.20.0` and the like from those documents, and offline
 * it fails with ENOTCACHED. So the project gets a package-lock.json made
 * from the repository's own: the same versions the tests ran with, every
 * one found in the cache by its integrity, dev dependencies left out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/shared/package-root.js';

interface LockEntry {
  version?: string;
  dev?: boolean;
  [field: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** Writes package.json and package-lock.json into `dir` for a project whose one dependency is `tarball` (a path relative to `dir`). */
export function writeOfflineProject(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(packageRoot(), 'package-lock.json'), 'utf8')) as Lockfile;
  const root = lock.packages[''];
  if (!root) throw new Error('package-lock.json has no root package');
  const spec = `file:${tarball}`;
  const manifest = { name: 'installs-animal-store-mock', version: '1.0.0', private: true, dependencies: { 'animal-store-mock': spec } };
  // The package itself, as npm records a tarball dependency: its own manifest's fields, resolved to the file.
  const installed: LockEntry = { version: root.version, resolved: spec };
  for (const field of ['license', 'dependencies', 'bin', 'engines']) if (root[field] !== undefined) installed[field] = root[field];
  const packages: Record<string, LockEntry> = { '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies }, 'node_modules/animal-store-mock': installed };
  // Production dependencies keep their place in the tree: hoisted at the top, nested where npm nested them.
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev) packages[path] = entry;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/**
 * The environment for npm children: the runner's, without the `npm_*`
 * variables an `npm test` parent sets. Those are read as configuration by a
 * child npm (`npm_config_local_prefix` would point it at this repository,
 * not at the temporary project).
 */
export function npmChildEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(base).filter(([name]) => !/^npm_/i.test(name)));
}
