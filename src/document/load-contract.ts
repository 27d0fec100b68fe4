import { loadDocument } from './load-document.js';
import { loadPrecompiledValidators } from './load-precompiled-validators.js';
import { contractOf, type Contract } from './contract.js';
import type { SchemaCompilerOptions } from './schema-compiler.js';

export type { Contract } from './contract.js';

/** Reads the contract document from its file (the shipped one by default) and compiles it, with the build's precompiled validators. */
export function loadContract(path?: string, compilerOptions?: SchemaCompilerOptions): Contract {
  loadPrecompiledValidators();
  return contractOf(loadDocument(path), compilerOptions);
}
