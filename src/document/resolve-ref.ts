import type { JsonSchema, OpenApiDocument } from './openapi-types.js';

/**
 * Follows local `$ref`s (`#/components/...`) until a schema without one is
 * reached. Only the document's own references exist here, so no resolver
 * library is needed; a dangling or remote reference is a broken document.
 */
export function resolveRef<T = JsonSchema>(document: OpenApiDocument, node: unknown): T {
  let current = node as { $ref?: unknown } | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/') || hops > 32) throw new Error(`unsupported or cyclic $ref ${ref}`);
    let target: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = (target as Record<string, unknown> | undefined)?.[key];
    }
    if (target === undefined) throw new Error(`$ref ${ref} points at nothing`);
    current = target as { $ref?: unknown };
  }
  return current as T;
}
