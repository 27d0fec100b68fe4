/**
 * A build step (`npm run build`): compiles what the harness reads of the
 * shipped contract document, keyed by the document's text as
 * compiled-by-build.ts looks it up: its documented request/response pairs
 * (dredd-transactions, dist/generated/transactions.json) and its
 * operations as prism reads them (dist/generated/operations.json). A
 * harness run then loads neither dredd-transactions nor prism's spec
 * reader. Run from dist: `node dist/scripts/build-document-data.js`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { compiledPath, documentKey } from '../src/document/compiled-by-build.js';
import { compileSource } from '../src/document/dredd.js';
import { loadDocument } from '../src/document/load-document.js';
import { getHttpOperationsFromSpec } from '../src/document/prism.js';
import { defaultDocumentPath, packageRoot } from '../src/shared/package-root.js';

const path = defaultDocumentPath();
const source = readFileSync(path, 'utf8');
// Named as in the package, not by this machine's path: the file ships.
const transactions = await compileSource(source, relative(packageRoot(), path));
const errors = transactions.annotations.filter((a) => a.type === 'error');
if (errors.length > 0) throw new Error(`dredd-transactions could not compile ${path}: ${errors.map((e) => e.message).join('; ')}`);
const operations = await getHttpOperationsFromSpec(loadDocument(path));

const write = (name: 'transactions' | 'operations', data: unknown): void => {
  const file = compiledPath(name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ [documentKey(source)]: data }));
};
write('transactions', transactions);
write('operations', operations);
