import { basename, extname } from 'node:path';
import { watchFolder, type FolderWatcher } from '../files/watch-folder.js';
import type { Logger } from 'pino';
import type { MockStore } from '../store/mock-store.js';
import type { ScenarioLibrary } from './scenario-library.js';

export type ScenarioWatcher = FolderWatcher;

export interface WatchScenariosOptions {
  /** The scenarios folder (`--scenarios`). */
  dir: string;
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
 * version keeps serving. How files are watched: files/watch-folder.ts.
 */
export function watchScenarios({ dir, library, store, logger, debounceMs = 100 }: WatchScenariosOptions): ScenarioWatcher {
  return watchFolder({ dir, inUse: () => store.paths(), changed: reload, logger, what: 'scenario', debounceMs });

  function reload(path: string): void {
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
}
