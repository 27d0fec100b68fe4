import { basename, dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { watchFolder, type FolderWatcher } from '../files/watch-folder.js';
import type { ActiveProfile } from './active-profile.js';
import { loadProfile } from './load-profile.js';

export interface WatchProfileOptions {
  /** The profile file given with `--profile`. */
  file: string;
  profile: ActiveProfile;
  logger: Logger;
  debounceMs?: number;
}

/**
 * Hot reload of the profile, as of scenario files (files/watch-folder.ts):
 * an edit that loads applies from the next request, in every session; one
 * that does not is refused with `<file>: <path> <reason>` at warn level,
 * and the profile loaded last keeps answering.
 */
export function watchProfile({ file, profile, logger, debounceMs }: WatchProfileOptions): FolderWatcher {
  const dir = dirname(resolve(file));
  const path = join(dir, basename(file));
  const inUse: ReadonlySet<string> = new Set([path]);
  return watchFolder({
    dir,
    inUse: () => inUse,
    logger,
    what: 'profile',
    debounceMs,
    changed() {
      const reloaded = loadProfile(file);
      if (!reloaded.ok) {
        logger.warn({ profile: profile.current.profile.name }, `invalid profile ${reloaded.error} (edit refused; still answering by profile ${profile.current.profile.name})`);
        return;
      }
      profile.replace(reloaded.value);
      logger.info({ profile: reloaded.value.profile.name }, `profile ${reloaded.value.profile.name} reloaded from ${reloaded.value.file}`);
    },
  });
}
