/**
 * A build step (`npm run build`): compiles the shipped contract document's
 * documented request/response pairs with dredd-transactions and writes
 * them to dist/generated/transactions.json, keyed by the document's text,
 * as compileTransactions looks them up. A harness run then need not load
 * dredd-transactions. Run from dist: `node dist/scripts/build-transactions.js`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { compileSource, precompiledTransactionsPath, transactionsKey } from '../src/document/dredd.js';
import { defaultDocumentPath, packageRoot } from '../src/shared/package-root.js';

const path = defaultDocumentPath();
const source = readFileSync(path, 'utf8');
// Named as in the package, not by this machine's path: the file ships.
const compiled = await compileSource(source, relative(packageRoot(), path));
const errors = compiled.annotations.filter((a) => a.type === 'error');
if (errors.length > 0) throw new Error(`dredd-transactions could not compile ${path}: ${errors.map((e) => e.message).join('; ')}`);
const out = precompiledTransactionsPath();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ [transactionsKey(source)]: compiled }));
