import { loadDocument } from '../../document/load-document.js';
import type { JsonSchema, OpenApiDocument, OpenApiParameter } from '../../document/openapi-types.js';
import { resolveRef } from '../../document/resolve-ref.js';

/**
 * The part of a JSON Schema the search generates from: a type with its
 * constraints, `$ref`s followed and `allOf` merged. Anything else the
 * document might use is kept out on purpose: an unknown keyword throws, so a
 * new constraint in the document is noticed rather than silently not tested.
 */
export type ValueSchema =
  | { kind: 'string'; enum?: readonly string[]; minLength?: number; maxLength?: number }
  | { kind: 'integer'; format?: string; minimum?: number; maximum?: number }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'array'; items: ValueSchema }
  | { kind: 'object'; properties: Record<string, ValueSchema>; required: readonly string[] };

export interface ParameterModel {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: ValueSchema;
}

type ObjectSchema = Extract<ValueSchema, { kind: 'object' }>;

/** The inputs of the three operations, as the contract document states them, and the item listPets answers. */
export interface InputModel {
  createBody: ObjectSchema;
  listQuery: ParameterModel[];
  getPath: ParameterModel[];
  /** The schema of each item of listPets' 200 page (Pet): a query parameter named after one of its fields is a filter. */
  listItem: ObjectSchema;
}

const IGNORED = new Set(['description', 'example', 'examples', 'default', 'title', 'deprecated', 'readOnly', 'writeOnly', 'nullable', 'xml', 'externalDocs']);

const models = new Map<string | undefined, InputModel>();

/** Reads the inputs of listPets, createPet and getPet from the document (default: the shipped one), once per document. */
export function inputModel(documentPath?: string): InputModel {
  let model = models.get(documentPath);
  if (!model) {
    model = readInputModel(documentPath);
    models.set(documentPath, model);
  }
  return model;
}

function readInputModel(documentPath: string | undefined): InputModel {
  const document = loadDocument(documentPath);
  const operation = (id: string) => {
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) if (op?.operationId === id) return op;
    }
    throw new Error(`the contract document has no operation ${id}`);
  };
  const parameters = (id: string, where: 'query' | 'path'): ParameterModel[] =>
    (operation(id).parameters ?? [])
      .map((p) => resolveRef<OpenApiParameter>(document, p))
      .filter((p): p is OpenApiParameter & { in: 'query' | 'path' } => p.in === where)
      .map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: toModel(document, p.schema ?? {}) }));
  const body = operation('createPet').requestBody?.content['application/json']?.schema;
  const createBody = toModel(document, body ?? {});
  if (createBody.kind !== 'object') throw new Error('createPet: the request body schema is not an object');
  const page = toModel(document, operation('listPets').responses['200']?.content?.['application/json']?.schema ?? {});
  if (page.kind !== 'array' || page.items.kind !== 'object') throw new Error('listPets: the 200 answer is not an array of objects');
  return { createBody, listQuery: parameters('listPets', 'query'), getPath: parameters('getPet', 'path'), listItem: page.items };
}

/** A document schema as a ValueSchema. */
export function toModel(document: OpenApiDocument, node: unknown): ValueSchema {
  const schema = resolveRef<JsonSchema>(document, node);
  if (Array.isArray(schema.allOf)) return mergeAll(schema.allOf.map((part) => toModel(document, part)));
  for (const key of Object.keys(schema)) {
    if (!IGNORED.has(key) && !KNOWN[String(schema.type)]?.includes(key) && key !== 'type') {
      throw new Error(`the generator does not know the schema keyword ${key} (type ${String(schema.type)})`);
    }
  }
  switch (schema.type) {
    case 'string':
      return { kind: 'string', ...pick(schema, ['enum', 'minLength', 'maxLength']) };
    case 'integer':
      return { kind: 'integer', ...pick(schema, ['format', 'minimum', 'maximum']) };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
      return { kind: 'array', items: toModel(document, schema.items) };
    case 'object': {
      const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, unknown>).map(([name, s]) => [name, toModel(document, s)]));
      return { kind: 'object', properties, required: (schema.required as string[] | undefined) ?? [] };
    }
    default:
      throw new Error(`the generator does not know the schema type ${String(schema.type)}`);
  }
}

const KNOWN: Record<string, string[]> = {
  string: ['enum', 'minLength', 'maxLength', 'format'],
  integer: ['format', 'minimum', 'maximum'],
  number: ['format'],
  boolean: [],
  array: ['items'],
  object: ['properties', 'required'],
};

function pick(schema: JsonSchema, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => schema[k] !== undefined).map((k) => [k, schema[k]]));
}

function mergeAll(parts: ValueSchema[]): ValueSchema {
  const properties: Record<string, ValueSchema> = {};
  const required: string[] = [];
  for (const part of parts) {
    if (part.kind !== 'object') throw new Error('allOf of something other than objects');
    Object.assign(properties, part.properties);
    required.push(...part.required);
  }
  return { kind: 'object', properties, required: [...new Set(required)] };
}

/** PetStatus's values, as NewPet's `status` states them in the document. */
export function petStatuses(documentPath?: string): readonly string[] {
  const status = inputModel(documentPath).createBody.properties.status;
  if (status?.kind !== 'string' || !status.enum) throw new Error('the contract document gives NewPet no status enum');
  return status.enum;
}
