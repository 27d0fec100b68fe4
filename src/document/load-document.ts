import { readFileSync } from 'node:fs';
import { parseYaml } from '../shared/parse-yaml.js';
import { defaultDocumentPath } from '../shared/package-root.js';
import type { OpenApiDocument } from './openapi-types.js';

/**
 * Reads the contract document (YAML or JSON) once. Throws with the file name
 * when it cannot be read or parsed: the document is the single source of
 * truth, so nothing may start without it.
 */
export function loadDocument(path: string = defaultDocumentPath()): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the contract document ${path}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new Error(`cannot parse the contract document ${path}: ${(error as Error).message}`);
  }
  const openapi = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof openapi !== 'string' || !openapi.startsWith('3.')) {
    throw new Error(`${path} is not an OpenAPI 3 document (openapi: ${String(openapi)})`);
  }
  return document as OpenApiDocument;
}
