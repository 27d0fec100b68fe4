import { extname } from 'node:path';

// Only these kinds are served, by the console and the API reference: anything else in a folder (an editor's backup, a stray note) is not.
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The Content-Type of a file the mock serves, by its name's extension; undefined for a kind it does not serve. */
export const contentTypeOf = (name: string): string | undefined => (Object.hasOwn(TYPES, extname(name)) ? TYPES[extname(name)] : undefined);
