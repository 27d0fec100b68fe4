import { INT64_MAX, INT64_MIN } from '../../../shared/exact-json/int64.js';
import type { ErrorObject } from 'ajv';

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

/**
 * Turns ajv's errors into short sentences that name the field, e.g.
 * `name is required`, `categoryId must be an integer`. Errors are collected
 * (ajv `allErrors`), so a client learns every problem of a body at once.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, root = 'body'): string {
  // A value of the wrong type also breaks its format and range; saying so
  // again adds nothing, so only the type error is kept for that value.
  const mistyped = new Set((errors ?? []).filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const relevant = (errors ?? []).filter((e) => e.keyword === 'type' || !mistyped.has(e.instancePath));
  const sentences = relevant.map((error) => describeError(error, root));
  return [...new Set(sentences)].join('; ') || `${root} is invalid`;
}

function describeError(error: ErrorObject, root: string): string {
  const path = fieldPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${joinPath(error.instancePath, String(params.missingProperty), root)} is required`;
    case 'type':
      return `${path} must be ${String(params.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`;
    case 'enum':
      return `${path} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'format':
      if (params.format === 'int64') return `${path} must be an integer from ${INT64_MIN} to ${INT64_MAX} (int64)`;
      if (params.format === 'int32') return `${path} must be an integer within the int32 range`;
      return `${path} must be a valid ${String(params.format)}`;
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * A readable path for an ajv instancePath (a JSON Pointer, RFC 6901). With
 * root `$` it is a JSON path (`$[3].status`, for fixture files); otherwise
 * field names are joined with dots (`name`, for request bodies) and the root
 * name stands for the whole value.
 */
function fieldPath(instancePath: string, root: string): string {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  if (root === '$') return '$' + segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`)).join('');
  return segments.length === 0 ? root : segments.join('.');
}

function joinPath(instancePath: string, property: string, root: string): string {
  return fieldPath(`${instancePath}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`, root);
}

const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
