import type { ErrorObject } from 'ajv';
import { childPath, pointerToPath } from './json-path.js';

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

const PATTERN_MEANING: Record<string, string> = {
  '^[a-z0-9]+(-[a-z0-9]+)*$': 'must be kebab-case: lower-case letters and digits, words joined by single hyphens',
};

/**
 * Turns ajv's errors against scenarios/scenario.schema.json into sentences
 * that start with the JSONPath in the file, e.g.
 * `$.stubs[0].match.operation must be one of listPets, createPet, getPet, *`.
 * ajv runs with `verbose` (so each error carries its schema and data) and
 * `allErrors`; the errors of a oneOf's branches and of `if` are folded into
 * one sentence about the oneOf.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const kept = errors.filter(
    (e) =>
      e.keyword !== 'if' &&
      // propertyNames reports the inner error too; the outer one names the key.
      e.propertyName === undefined &&
      !unions.some((prefix) => e.schemaPath.startsWith(prefix)),
  );
  return [...new Set(kept.map(describe).filter((sentence): sentence is string => sentence !== undefined))];
}

function describe(error: ErrorObject): string | undefined {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const propertyNames = (): string[] => Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  switch (error.keyword) {
    case 'required':
      return `${childPath(path, String(params.missingProperty))} is required`;
    case 'additionalProperties': {
      const allowed = propertyNames();
      return `${childPath(path, String(params.additionalProperty))} is not allowed here${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'type':
      return `${path} must be ${String(params.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`;
    case 'enum':
      return `${path} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${path} must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return `${path} ${PATTERN_MEANING[String(params.pattern)] ?? `must match ${String(params.pattern)}`}`;
    case 'propertyNames':
      return `${path} has a name that is not a valid HTTP field name: ${JSON.stringify(params.propertyName)}`;
    case 'minProperties':
      return `${path} must have ${Number(params.limit) === 1 ? 'at least one of' : `at least ${String(params.limit)} of`} ${propertyNames().join(', ')}`;
    case 'maxProperties': {
      const present = Object.keys((error.data as object | undefined) ?? {});
      return `${path} must have only one of ${propertyNames().join(', ')} (it has ${present.join(' and ')})`;
    }
    case 'dependencies':
      return `${childPath(path, String(params.property))} is allowed only with ${String(params.deps)}`;
    case 'oneOf':
      return describeOneOf(error, path);
    default:
      return `${path} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * The oneOfs of the schema choose between keys: `[{required: [response]}, {required: [fault]}]`.
 * On a value that is not a mapping they say nothing: its type error does.
 */
function describeOneOf(error: ErrorObject, path: string): string | undefined {
  if (typeof error.data !== 'object' || error.data === null || Array.isArray(error.data)) return undefined;
  const branches = error.schema as Array<{ required?: string[] }>;
  const keys = branches.flatMap((b) => b.required ?? []);
  if (keys.length !== branches.length) return `${path} ${error.message ?? 'is invalid'}`;
  const present = keys.filter((key) => Object.hasOwn((error.data as object | null) ?? {}, key));
  return present.length === 0 ? `${path} must have one of ${keys.join(', ')}` : `${path} must have only one of ${keys.join(', ')} (it has ${present.join(' and ')})`;
}
