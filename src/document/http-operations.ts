import { readFileSync } from 'node:fs';
import { defaultDocumentPath } from '../shared/package-root.js';
import { compiledByBuild } from './compiled-by-build.js';
import { loadDocument } from './load-document.js';
import { getHttpOperationsFromSpec, type IHttpOperation } from './prism.js';

/**
 * The document's operations as prism's validators read them: the shipped
 * document's as the build compiled them (the same data, read back from
 * JSON), any other document's from prism's spec reader.
 */
export async function httpOperations(path: string = defaultDocumentPath()): Promise<IHttpOperation[]> {
  let source: string | undefined;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    // loadDocument says why, with the file's name.
  }
  return (source === undefined ? undefined : compiledByBuild<IHttpOperation[]>('operations', source)) ?? getHttpOperationsFromSpec(loadDocument(path));
}
