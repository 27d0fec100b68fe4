import { compileOperations, type OperationSpec } from './operations.js';
import { createSchemaCompiler, type SchemaCompiler, type SchemaCompilerOptions } from './schema-compiler.js';
import type { OpenApiDocument } from './openapi-types.js';

export interface Contract {
  document: OpenApiDocument;
  operations: Map<string, OperationSpec>;
  schemas: SchemaCompiler;
  /** The path every server URL ends with (`/v1`), where the mock serves the API. */
  basePath: string;
}

/** Compiles a contract document once, for everything that needs it: in any runtime (load-contract.ts reads it from a file first). */
export function contractOf(document: OpenApiDocument, compilerOptions?: SchemaCompilerOptions): Contract {
  const schemas = createSchemaCompiler(document, compilerOptions);
  return {
    document,
    operations: compileOperations(document, schemas),
    schemas,
    basePath: basePathOf(document),
  };
}

/**
 * Both servers are templated (`{base_url}`), so the base path is read from
 * their variables' defaults; the interface says both end with `/v1`.
 */
function basePathOf(document: OpenApiDocument): string {
  const paths = new Set(
    (document.servers ?? []).map((server) => {
      const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
      return new URL(url, 'http://placeholder').pathname.replace(/\/$/, '');
    }),
  );
  if (paths.size !== 1) throw new Error(`the document's servers must share one base path, found: ${[...paths].join(', ') || 'none'}`);
  return [...paths][0] as string;
}
