import { integerRange } from '../generate/integer-values.js';
import type { InputModel, ParameterModel, ValueSchema } from '../generate/schema-model.js';
import { exactInteger } from '../../shared/exact-json/int64.js';

/** The page-size parameter the interface describes: 1–100, default 20. */
export const PAGE_SIZE = 'limit';
export const DEFAULT_PAGE_SIZE = 20;

type ScalarSchema = Extract<ValueSchema, { kind: 'string' | 'integer' | 'number' | 'boolean' }>;

/**
 * What the harness makes of a documented listPets query parameter, read
 * from the document: `limit` sizes the page; one named after a scalar field
 * of the page's items (Pet) is a filter, which every item answered must
 * match; any other is unjudged: neither the interface nor the document
 * says what it does to a page, so no answer to it can be called wrong.
 */
export type QueryRole =
  | { kind: 'page-size'; parameter: ParameterModel }
  | { kind: 'filter'; parameter: ParameterModel; field: ScalarSchema }
  | { kind: 'unjudged'; parameter: ParameterModel };

export type Query = Record<string, string>;

/** A filter as asked in one query: the item field and the value it must equal. */
export interface AskedFilter {
  name: string;
  value: unknown;
}

const isScalar = (schema: ValueSchema | undefined): schema is ScalarSchema => schema !== undefined && ['string', 'integer', 'number', 'boolean'].includes(schema.kind);

export function queryRoles({ listQuery, listItem }: Pick<InputModel, 'listQuery' | 'listItem'>): QueryRole[] {
  return listQuery.map((parameter): QueryRole => {
    if (parameter.name === PAGE_SIZE) return { kind: 'page-size', parameter };
    const field = listItem.properties[parameter.name];
    return isScalar(field) ? { kind: 'filter', parameter, field } : { kind: 'unjudged', parameter };
  });
}

/**
 * A query text read as the item field's type reads it, so that `3` asked
 * of an integer field matches the JSON number 3 (and not the string "3").
 * Undefined when the text is not a value of that type.
 */
export function typedValue(schema: ScalarSchema, text: string): unknown {
  switch (schema.kind) {
    case 'integer':
      // Digits exactly: an int64 past 2^53 is compared with the item's exact value (a bigint).
      if (/^\s*-?\d+\s*$/.test(text)) return exactInteger(BigInt(text.trim()));
      return /^\s*$/.test(text) || !Number.isFinite(Number(text)) ? undefined : Number(text);
    case 'number':
      return /^\s*$/.test(text) || !Number.isFinite(Number(text)) ? undefined : Number(text);
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'string':
      return text;
  }
}

/** The filters a query asks, each with its typed value. */
export function askedFilters(roles: readonly QueryRole[], query: Query): AskedFilter[] {
  return roles.flatMap((role) => {
    const text = query[role.parameter.name];
    if (role.kind !== 'filter' || text === undefined) return [];
    return [{ name: role.parameter.name, value: typedValue(role.field, text) }];
  });
}

/** The unjudged parameters a query asks. */
export const askedUnjudged = (roles: readonly QueryRole[], query: Query): string[] =>
  roles.filter((role) => role.kind === 'unjudged' && query[role.parameter.name] !== undefined).map((role) => role.parameter.name);

export const matchesAll = (item: unknown, filters: readonly AskedFilter[]): boolean =>
  filters.every((f) => typeof item === 'object' && item !== null && (item as Record<string, unknown>)[f.name] === f.value);

/** Whether a parameter's schema allows a value an item has: its type, enum, range and lengths. */
export function allows(schema: ValueSchema, value: unknown): boolean {
  switch (schema.kind) {
    case 'string':
      return typeof value === 'string' && (!schema.enum || schema.enum.includes(value)) && [...value].length >= (schema.minLength ?? 0) && [...value].length <= (schema.maxLength ?? Infinity);
    case 'integer': {
      const [min, max] = integerRange(schema);
      return ((typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint') && BigInt(value) >= min && BigInt(value) <= max;
    }
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

/**
 * RFC 9110 §4.1: every sender and recipient should support URIs of at
 * least 8,000 octets, and a server may refuse a longer one (414, or 431 for
 * the request's head). A string a query parameter's schema leaves unbounded
 * is drawn to at most 500 code points (6,000 octets percent-encoded at
 * worst), so a generated URL stays within what every server must read.
 */
const URL_STRING_LIMIT = 500;
export const withinUrl = (schema: ValueSchema): ValueSchema =>
  schema.kind === 'string' && (schema.maxLength ?? Infinity) > URL_STRING_LIMIT ? { ...schema, maxLength: URL_STRING_LIMIT } : schema;
