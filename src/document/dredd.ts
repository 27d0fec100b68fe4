import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defaultDocumentPath } from '../shared/package-root.js';
import { compiledByBuild } from './compiled-by-build.js';

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

/**
 * Compiles the contract document into its documented request/response pairs
 * with dredd-transactions (CommonJS): `parse()` first, then `compile()`.
 * The build compiles the shipped document ahead of time: loading
 * dredd-transactions alone costs about a quarter of a second of CPU, which
 * every harness run paid.
 */
export async function compileTransactions(path: string = defaultDocumentPath()): Promise<CompiledTransactions> {
  const source = readFileSync(path, 'utf8');
  return compiledByBuild<CompiledTransactions>('transactions', source) ?? compileSource(source, path);
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
