import { SHIPPED_FILES } from '../generated/shipped-files.js';

/**
 * The text of a file the package ships (`scenarios/scenario.schema.json`),
 * as the build copied it (scripts/write-shipped-files.mjs): read the same
 * way in every runtime, with no file system.
 */
export function shippedText(path: string): string {
  const text = SHIPPED_FILES[path];
  if (text === undefined) throw new Error(`the package ships no ${path}`);
  return text;
}

/** The paths of the shipped files under `folder` (`scenarios`), in order. */
export const shippedPaths = (folder: string): string[] => Object.keys(SHIPPED_FILES).filter((path) => path.startsWith(`${folder}/`));
