import type { ValidateFunction } from 'ajv';
import { resolveRef } from './resolve-ref.js';
import type { SchemaCompiler } from './schema-compiler.js';
import type { HttpMethod, JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi-types.js';

export interface ParameterSpec {
  name: string;
  required: boolean;
  /** The parameter's schema with `$ref`s followed, to know how to read the raw string. */
  schema: JsonSchema;
  validate: ValidateFunction;
  default: unknown;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  /** The document's path template, e.g. `/pets/{petId}`. */
  path: string;
  deprecated: boolean;
  sunset: Date | undefined;
  deprecatedSince: Date | undefined;
  replacement: string | undefined;
  query: ParameterSpec[];
  pathParams: ParameterSpec[];
  body: { required: boolean; mediaTypes: string[]; validate: ValidateFunction } | undefined;
  statuses: string[];
  /** Each documented status's JSON examples by name, in document order (`$ref` responses followed); a lone `example` is named `default`. */
  examples: Map<string, Map<string, unknown>>;
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

/**
 * Compiles every operation of the document into what the mock needs on the
 * request path: parameter and body validators, deprecation facts. Run once at
 * start-up; nothing here is read from the document per request.
 */
export function compileOperations(document: OpenApiDocument, compiler: SchemaCompiler): Map<string, OperationSpec> {
  const operations = new Map<string, OperationSpec>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (operations.has(operation.operationId)) throw new Error(`duplicate operationId ${operation.operationId}`);
      operations.set(operation.operationId, compileOperation(document, compiler, path, method, operation));
    }
  }
  return operations;
}

function compileOperation(
  document: OpenApiDocument,
  compiler: SchemaCompiler,
  path: string,
  method: HttpMethod,
  operation: OpenApiOperation,
): OperationSpec {
  const parameters = (operation.parameters ?? []).map((p) => resolveRef<OpenApiParameter>(document, p));
  const compileParameter = (p: OpenApiParameter): ParameterSpec => {
    const schema = p.schema ?? {};
    const resolved = resolveRef(document, schema);
    return {
      name: p.name,
      required: p.required === true,
      schema: resolved,
      validate: compiler.compile(schema),
      default: resolved.default,
    };
  };
  // A template name without its parameter (or the reverse) would make the
  // mock read nothing for it: refuse the document at start-up instead
  // (OpenAPI 3.0.3, Path Templating).
  const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string).sort();
  const declared = parameters.filter((p) => p.in === 'path').map((p) => p.name).sort();
  if (templated.join() !== declared.join()) {
    throw new Error(`${operation.operationId}: the path ${path} names {${templated.join('}, {')}} but the operation declares path parameters ${declared.join(', ') || 'none'}`);
  }
  const requestBody = operation.requestBody;
  const bodySchema = requestBody?.content['application/json']?.schema;
  return {
    operationId: operation.operationId,
    method: method.toUpperCase(),
    path,
    deprecated: operation.deprecated === true,
    sunset: optionalDate(operation['x-sunset'], `${operation.operationId} x-sunset`),
    deprecatedSince: optionalDate(operation['x-deprecated-since'], `${operation.operationId} x-deprecated-since`),
    replacement: operation['x-replacement'],
    query: parameters.filter((p) => p.in === 'query').map(compileParameter),
    pathParams: parameters.filter((p) => p.in === 'path').map(compileParameter),
    body:
      requestBody && bodySchema
        ? {
            required: requestBody.required === true,
            mediaTypes: Object.keys(requestBody.content),
            validate: compiler.compile(bodySchema),
          }
        : undefined,
    statuses: Object.keys(operation.responses),
    examples: responseExamples(document, operation),
  };
}

function responseExamples(document: OpenApiDocument, operation: OpenApiOperation): Map<string, Map<string, unknown>> {
  const byStatus = new Map<string, Map<string, unknown>>();
  for (const [status, raw] of Object.entries(operation.responses)) {
    const media = resolveRef<OpenApiResponse>(document, raw).content?.['application/json'];
    const named = new Map<string, unknown>();
    for (const [name, example] of Object.entries(media?.examples ?? {})) named.set(name, resolveRef<{ value?: unknown }>(document, example).value);
    if (named.size === 0 && media?.example !== undefined) named.set('default', media.example);
    byStatus.set(status, named);
  }
  return byStatus;
}

function optionalDate(value: string | undefined, what: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`${what} is not a date (YYYY-MM-DD): ${value}`);
  return date;
}
