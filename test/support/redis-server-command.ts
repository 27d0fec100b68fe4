/**
 * Where `redis-server` is, found on PATH as a shell would find it. Read by
 * vitest.config.ts (whether the `redis` project runs at all) and by
 * startRedisServer (what to spawn), so both agree on one answer.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The path of the first executable `redis-server` file on PATH, or undefined. */
export function redisServerCommand(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    // An empty PATH entry means the current folder; a shell finds commands there, but a test run must not depend on its cwd.
    if (dir === '') continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Missing or not executable here: try the next folder.
    }
  }
  return undefined;
}
