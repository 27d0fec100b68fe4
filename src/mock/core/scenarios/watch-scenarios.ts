import { watch, type FSWatcher } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Logger } from 'pino';
import type { MockStore } from '../store/mock-store.js';
import type { ScenarioLibrary } from './scenario-library.js';

export interface ScenarioWatcher {
  close(): void;
}

export interface WatchScenariosOptions {
  library: ScenarioLibrary;
  store: MockStore;
  logger: Logger;
  debounceMs?: number;
}

/**
 * Hot reload: when a scenario file in use changes (the active scenario of
 * any session, one a `Prefer: scenario=` started, or the one new sessions
 * start in), it is loaded again and applied everywhere it is used, each
 * with a fresh catalogue and stub state. An edit that makes it invalid is
 * refused with `<file>: <path> <reason>` at warn level, and the last good
 * version keeps serving.
 *
 * node's own `fs.watch` on the folder, not chokidar: chokidar 5 needs
 * Node 22 and this package supports Node 20.19. Watching the folder rather
 * than the file survives editors that save by writing a new file and
 * renaming it over the old one (the file's inode changes; a watch on it
 * would go quiet). Events come in bursts (one save can give several), so
 * they are debounced, per file.
 */
export function watchScenarios({ library, store, logger, debounceMs = 100 }: WatchScenariosOptions): ScenarioWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  let watcher: FSWatcher;
  try {
    watcher = watch(library.dir, { persistent: false });
  } catch (error) {
    logger.warn(`cannot watch ${library.dir} for scenario edits: ${(error as Error).message}; edits apply after a restart`);
    return { close: () => undefined };
  }
  watcher.on('error', (error) => logger.warn(`stopped watching ${library.dir} for scenario edits: ${error.message}`));
  watcher.on('change', (_event, filename) => {
    // Some platforms give no file name: then every file in use counts.
    const changed = filename === null ? [...store.paths()] : [join(library.dir, filename.toString())].filter((path) => store.paths().has(path));
    for (const path of changed) {
      clearTimeout(timers.get(path));
      const timer = setTimeout(() => reload(path), debounceMs);
      timer.unref();
      timers.set(path, timer);
    }
  });

  function reload(path: string): void {
    timers.delete(path);
    const name = basename(path, extname(path));
    void library.load(name).then(
      (reloaded) => {
        if (!reloaded.ok) {
          logger.warn({ scenario: name }, `${reloaded.error.message} (edit refused; still serving the last good version of ${name})`);
          return;
        }
        store.replace(reloaded.value);
        // On a shared store the state is every process's, and each process reloads on its own: resetting it from each would undo requests served between them.
        const state = store.kind === 'memory' ? 'its state was reset' : 'its state on the shared store is kept (POST /__mock/reset starts it afresh)';
        logger.info({ scenario: name }, `scenario ${name} reloaded from ${reloaded.value.scenario.file}; ${state}`);
      },
      (error: unknown) => logger.warn({ scenario: name }, `reloading scenario ${name} failed: ${(error as Error).message}`),
    );
  }

  return {
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      watcher.close();
    },
  };
}
