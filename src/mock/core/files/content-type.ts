// Only these kinds are served, by the console and the API reference: anything else in a folder (an editor's backup, a stray note) is not.
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The Content-Type of a file the mock serves, by its name's extension; undefined for a kind it does not serve. */
export function contentTypeOf(name: string): string | undefined {
  // As node's path.extname: from the last dot, unless the name starts there (`.html` is a hidden file, not an extension).
  const extension = /[^/.]\.[^./]*$/.exec(name)?.[0].slice(1) ?? '';
  return Object.hasOwn(TYPES, extension) ? TYPES[extension] : undefined;
}
