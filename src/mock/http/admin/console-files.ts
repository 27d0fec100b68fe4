import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../shared/package-root.js';
import { contentTypeOf } from '../../core/files/content-type.js';
import { staticFile, type StaticFile } from '../../core/files/static-file.js';

const loaded = new Map<string, ReadonlyMap<string, StaticFile>>();

/**
 * The console's static files (the package's `console/` folder), read once
 * per process into memory, by file name. A request can only name one of
 * these keys, so no path it sends ever reaches the file system (no
 * traversal to guard against), and serving a file costs no disk read.
 * Only the kinds contentTypeOf knows are served; each gets its ETag here.
 */
export function consoleFiles(dir: string = join(packageRoot(), 'console')): ReadonlyMap<string, StaticFile> {
  let files = loaded.get(dir);
  if (!files) {
    const read = new Map<string, StaticFile>();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const type = contentTypeOf(entry.name);
      if (entry.isFile() && type !== undefined) read.set(entry.name, staticFile(readFileSync(join(dir, entry.name), 'utf8'), type));
    }
    loaded.set(dir, (files = read));
  }
  return files;
}
