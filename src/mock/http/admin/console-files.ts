import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { packageRoot } from '../../../contract/package-root.js';

/** One file of the console, as it is sent. */
export interface ConsoleFile {
  body: string;
  type: string;
}

// Only these kinds are served: anything else in the folder (an editor's backup, a stray note) is not.
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const loaded = new Map<string, ReadonlyMap<string, ConsoleFile>>();

/**
 * The console's static files (the package's `console/` folder), read once
 * per process into memory, by file name. A request can only name one of
 * these keys, so no path it sends ever reaches the file system (no
 * traversal to guard against), and serving a file costs no disk read.
 */
export function consoleFiles(dir: string = join(packageRoot(), 'console')): ReadonlyMap<string, ConsoleFile> {
  let files = loaded.get(dir);
  if (!files) {
    files = new Map(
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && TYPES[extname(entry.name)] !== undefined)
        .map((entry) => [entry.name, { body: readFileSync(join(dir, entry.name), 'utf8'), type: TYPES[extname(entry.name)] as string }]),
    );
    loaded.set(dir, files);
  }
  return files;
}
