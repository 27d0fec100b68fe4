import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defaultDocumentPath, packageRoot } from '../shared/package-root.js';

const require = createRequire(import.meta.url);

/** One documented request/response pair, as dredd-transactions compiles it. */
export interface DocumentedTransaction {
  name: string;
  request: { method: string; uri: string; headers: Array<{ name: string; value: string }>; body: string };
  response: { status: string; headers: Array<{ name: string; value: string }>; body?: string };
}

export interface CompiledTransactions {
  transactions: DocumentedTransaction[];
  /** dredd-transactions' errors and warnings (it warns about OpenAPI keys it does not read). */
  annotations: Array<{ type: string; message: string }>;
}

interface DreddTransactions {
  parse(source: string, callback: (error: Error | null, result: { mediaType: string; apiElements: unknown }) => void): void;
  compile(mediaType: string, apiElements: unknown, filename: string): CompiledTransactions;
}

/** Where the build writes the shipped document's pairs (`npm run build`), keyed by the document's text. */
export const precompiledTransactionsPath = (): string => join(packageRoot(), 'dist', 'generated', 'transactions.json');

/** The key of a document's pairs in the build's output: its text, hashed, so an edited document is compiled again. */
export const transactionsKey = (source: string): string => createHash('sha256').update(source).digest('hex');

/**
 * Compiles the contract document into its documented request/response pairs
 * with dredd-transactions (CommonJS): `parse()` first, then `compile()`.
 * The build compiles the shipped document ahead of time: loading
 * dredd-transactions alone costs about a quarter of a second of CPU, which
 * every harness run paid.
 */
export async function compileTransactions(path: string = defaultDocumentPath()): Promise<CompiledTransactions> {
  const source = readFileSync(path, 'utf8');
  return precompiled(transactionsKey(source)) ?? compileSource(source, path);
}

function precompiled(key: string): CompiledTransactions | undefined {
  const file = precompiledTransactionsPath();
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, CompiledTransactions>)[key];
}

/** dredd-transactions' own compilation of a document's text (the build's step too). */
export function compileSource(source: string, path: string): Promise<CompiledTransactions> {
  const dredd = require('dredd-transactions') as DreddTransactions;
  return new Promise((resolve, reject) => {
    dredd.parse(source, (error, parsed) => {
      if (error) return reject(error);
      try {
        resolve(dredd.compile(parsed.mediaType, parsed.apiElements, path));
      } catch (compileError) {
        reject(compileError as Error);
      }
    });
  });
}
