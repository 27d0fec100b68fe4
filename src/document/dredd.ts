import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { defaultDocumentPath } from '../shared/package-root.js';

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
 */
export function compileTransactions(path: string = defaultDocumentPath()): Promise<CompiledTransactions> {
  const dredd = require('dredd-transactions') as DreddTransactions;
  const source = readFileSync(path, 'utf8');
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
