import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

export interface FolderWatcher {
  close(): void;
}

export interface WatchFolderOptions {
  dir: string;
  /** The files of `dir` in use now, as `join(dir, name)` gives them: only their changes count. */
  inUse: () => ReadonlySet<string>;
  /** Called once a burst of changes to `path` has settled. */
  changed: (path: string) => void;
  logger: Logger;
  /** What the files are, as the log names them: `scenario`, `profile`. */
  what: string;
  debounceMs?: number;
}

/**
 * Hot reload's watch, for scenario files and profiles alike: node's own
 * `fs.watch` on the folder, not chokidar (chokidar 5 needs Node 22 and
 * this package supports Node 20.19). Watching the folder rather than the
 * file survives editors that save by writing a new file and renaming it
 * over the old one (the file's inode changes; a watch on it would go
 * quiet). Events come in bursts (one save can give several), so they are
 * debounced, per file.
 */
export function watchFolder({ dir, inUse, changed, logger, what, debounceMs = 100 }: WatchFolderOptions): FolderWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { persistent: false });
  } catch (error) {
    logger.warn(`cannot watch ${dir} for ${what} edits: ${(error as Error).message}; edits apply after a restart`);
    return { close: () => undefined };
  }
  watcher.on('error', (error) => logger.warn(`stopped watching ${dir} for ${what} edits: ${error.message}`));
  watcher.on('change', (_event, filename) => {
    // Some platforms give no file name: then every file in use counts.
    const paths = filename === null ? [...inUse()] : [join(dir, filename.toString())].filter((path) => inUse().has(path));
    for (const path of paths) {
      clearTimeout(timers.get(path));
      const timer = setTimeout(() => {
        timers.delete(path);
        changed(path);
      }, debounceMs);
      timer.unref();
      timers.set(path, timer);
    }
  });
  return {
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      watcher.close();
    },
  };
}
