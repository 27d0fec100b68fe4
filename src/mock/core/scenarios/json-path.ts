/**
 * Paths inside a scenario file, written as JSONPath (`$.stubs[2].match.operation`),
 * from ajv's JSON Pointers (RFC 6901) or from keys.
 */
export function pointerToPath(pointer: string, root = '$'): string {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, key) => childPath(path, key), root);
}

/** `$.a` + `b` → `$.a.b`; array indexes as `[2]`; keys that are not identifiers as `['x-api-key']`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number' || /^\d+$/.test(key)) return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key).replace(/^"|"$/g, "'")}]`;
}
