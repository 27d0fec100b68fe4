import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../shared/package-root.js';

/**
 * What the build compiles ahead of time from the shipped contract document
 * (`npm run build`, scripts/build-document-data.ts), for the harness to
 * read instead of loading the library that makes it: each file maps a
 * document's text, hashed, to its data. An edited document (or another,
 * `--document`) finds no key and is compiled when it is needed, so the
 * data is always the document's own, never a stale copy.
 */
export const compiledPath = (name: 'transactions' | 'operations'): string => join(packageRoot(), 'dist', 'generated', `${name}.json`);

/** A document's key in those files: its text, hashed. */
export const documentKey = (source: string): string => createHash('sha256').update(source).digest('hex');

/** The build's data for the document whose text is `source`, if the build compiled that text. */
export function compiledByBuild<T>(name: 'transactions' | 'operations', source: string): T | undefined {
  const file = compiledPath(name);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, T>)[documentKey(source)];
}
