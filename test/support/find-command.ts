/**
 * Where a command is, found as a shell would find it: on PATH, then in
 * `extraDirs` (Debian puts daemons such as nginx in /usr/sbin, which a
 * user's PATH may lack). Read by vitest.config.ts (whether a server's
 * project runs at all) and by the helpers that spawn the server, so both
 * agree on one answer.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The path of the first executable file called `name` on PATH, then in `extraDirs`, or undefined. */
export function findCommand(name: string, extraDirs: readonly string[] = []): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extraDirs]) {
    // An empty PATH entry means the current folder; a shell finds commands there, but a test run must not depend on its cwd.
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Missing or not executable here: try the next folder.
    }
  }
  return undefined;
}
