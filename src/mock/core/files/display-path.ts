import { isAbsolute, relative } from 'node:path';

/** A path as messages show it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string): string {
  const fromCwd = relative(process.cwd(), path);
  return fromCwd && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : path;
}
