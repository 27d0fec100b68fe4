import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { ScenarioControl } from './scenario-control.js';

export interface ScenarioWatcher {
  close(): void;
}

/**
 * Hot reload: when the active scenario's file changes, it is loaded again
 * and applied (fresh catalogue and stub state). An edit that makes it
 * invalid is refused with `<file>: <path> <reason>` at warn level, and the
 * last good version keeps serving.
 *
 * node's own `fs.watch` on the folder, not chokidar: chokidar 5 needs
 * Node 22 and this package supports Node 20.19. Watching the folder rather
 * than the file survives editors that save by writing a new file and
 * renaming it over the old one (the file's inode changes; a watch on it
 * would go quiet). Events come in bursts (one save can give several), so
 * they are debounced.
 */
export function watchScenarios(control: ScenarioControl, logger: Logger, debounceMs = 100): ScenarioWatcher {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(control.dir, { persistent: false });
  } catch (error) {
    logger.warn(`cannot watch ${control.dir} for scenario edits: ${(error as Error).message}; edits apply after a restart`);
    return { close: () => undefined };
  }
  watcher.on('error', (error) => logger.warn(`stopped watching ${control.dir} for scenario edits: ${error.message}`));
  watcher.on('change', (_event, filename) => {
    const path = control.path;
    if (!path) return;
    // Some platforms give no file name: then any change in the folder counts.
    if (filename !== null && filename.toString() !== basename(path)) return;
    clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
    timer.unref();
  });

  function reload(): void {
    const name = control.runtime?.scenario.name;
    void control.reload().then(
      (reloaded) => {
        if (reloaded.ok) logger.info({ scenario: name }, `scenario ${name} reloaded from ${reloaded.value.file}; its state was reset`);
        else logger.warn({ scenario: name }, `${reloaded.error.message} (edit refused; still serving the last good version of ${name})`);
      },
      (error: unknown) => logger.warn({ scenario: name }, `reloading scenario ${name} failed: ${(error as Error).message}`),
    );
  }

  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
