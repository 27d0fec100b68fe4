import { createRequire } from 'node:module';

/**
 * prism-http is CommonJS and does not export its validators from the package
 * root (they live in `dist/validator`), so they are loaded with `require`.
 * Only what this project reads is typed here, so nothing imports prism's
 * own dependencies (fp-ts, @stoplight/types) directly.
 */
const require = createRequire(import.meta.url);

interface HttpResponse {
  statusCode: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface HttpRequest {
  method: string;
  url: { path: string; query?: Record<string, string | string[]> };
  headers?: Record<string, string>;
  body?: unknown;
}

/** prism's form of one documented operation (`@stoplight/types` IHttpOperation), as far as it is read here. */
export interface IHttpOperation {
  id: string;
  iid?: string;
  method: string;
  path: string;
  deprecated?: boolean;
  request?: { query?: Array<{ name: string; schema?: Record<string, unknown> }> };
  responses: Array<{ code: string; headers?: Array<{ name: string }> }>;
}

/** prism's diagnostic; severity 0 is an error (`DiagnosticSeverity.Error`). */
export interface IPrismDiagnostic {
  code?: string | number;
  message: string;
  severity: number;
  path?: string[];
}

/** fp-ts's Either, as prism returns it. */
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };

type Validator<E> = (opts: { resource: IHttpOperation; element: E }) => Either<IPrismDiagnostic[], E>;

export const prismValidators = require('@stoplight/prism-http/dist/validator') as {
  validateOutput: Validator<HttpResponse>;
  validateInput: Validator<HttpRequest>;
};

/**
 * A document's operations as prism reads them. From its own module, not the
 * package root: the root also loads prism's mocker and forwarder
 * (json-schema-faker, faker 6, …), about a second of start-up that the
 * validators do not need. Loaded when first asked: the spec reader
 * (@stoplight/http-spec, postman-collection with it) takes about 0.2 s of
 * CPU, which the shipped document's operations, compiled by the build,
 * spare (http-operations.ts).
 */
export function getHttpOperationsFromSpec(spec: object | string): Promise<IHttpOperation[]> {
  const reader = require('@stoplight/prism-http/dist/utils/operations') as { getHttpOperationsFromSpec: (spec: object | string) => Promise<IHttpOperation[]> };
  return reader.getHttpOperationsFromSpec(spec);
}

export type { HttpRequest, HttpResponse };
