import { accessSync, constants, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { failed, ok, type Result } from '../result.js';

/**
 * Kernel file systems: they hold the kernel's entries, never a folder the
 * mock could write a recording in. A `mkdir` there answers ENOENT (not
 * EACCES or EROFS), which Node's `mkdir(…, { recursive: true })` reads as
 * "the parent is missing" and retries forever: the call never returns.
 */
const KERNEL_FILE_SYSTEMS = ['/proc', '/sys'];

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';
const under = (path: string, root: string): boolean => path === root || path.startsWith(root + sep);

/**
 * Makes the folder `absolute` and the missing folders above it, one level
 * at a time, and checks the mock can write in it; or says why not, in a
 * sentence that names the path. One `mkdir` per missing level, never the
 * recursive one: each call is one system call that answers, so a place
 * where folders cannot be made (a kernel file system, a mount whose folder
 * was deleted) is refused at once instead of spinning.
 */
export function makeFolder(absolute: string): Result<void, string> {
  const found = nearestExisting(absolute);
  if (!found.ok) return found;
  const { existing, missing } = found.value;
  if (!isFolder(existing)) return failed(`${existing} is not a folder`);
  const kernel = kernelFileSystem(existing);
  if (kernel !== undefined) return failed(`${kernel} is a kernel file system, where no folder can be made or written`);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    return failed(`cannot write in ${existing} (${codeOf(error)})`);
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      // Made by another process in the meantime: a folder is as good as ours.
      // EEXIST and no folder: a dangling link, say.
      if (codeOf(error) !== 'EEXIST' || !isFolder(dir)) return failed(`cannot make ${dir} (${codeOf(error)})`);
    }
  }
  return ok(undefined);
}

/** `/proc` or `/sys` when `path` (its links resolved) is in one of them. */
export function kernelFileSystem(path: string): string | undefined {
  const real = realOrSame(path);
  return KERNEL_FILE_SYSTEMS.find((root) => under(real, root));
}

/** The nearest folder (or file) above `absolute` that exists, and the levels below it to make, top first. */
function nearestExisting(absolute: string): Result<{ existing: string; missing: string[] }, string> {
  const missing: string[] = [];
  for (let path = absolute; ; path = dirname(path)) {
    try {
      statSync(path);
      return ok({ existing: path, missing });
    } catch (error) {
      // ENOTDIR: a file above; keep walking up to name it.
      if (codeOf(error) !== 'ENOENT' && codeOf(error) !== 'ENOTDIR') return failed(`cannot read ${path} (${codeOf(error)})`);
      if (dirname(path) === path) return failed(`${path} does not exist`);
      missing.unshift(path);
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The path with its links resolved, so a link into /proc is seen as /proc; the path itself when it cannot be resolved. */
function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
