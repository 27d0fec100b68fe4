/**
 * The small part of OpenAPI 3.0 this project reads. Schemas stay opaque
 * (`JsonSchema`): they are handed to ajv and prism, never interpreted by hand.
 */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
  example?: unknown;
  /** Named examples; each may be a `$ref` to `#/components/examples/…`. */
  examples?: Record<string, { summary?: string; value?: unknown; $ref?: string }>;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, OpenApiMediaType>;
  $ref?: string;
}

export interface OpenApiOperation {
  operationId: string;
  deprecated?: boolean;
  'x-sunset'?: string;
  'x-deprecated-since'?: string;
  'x-replacement'?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'trace';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, OpenApiResponse> };
}
