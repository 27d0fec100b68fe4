import { parseExactJson } from '../../../shared/exact-json/parse-exact-json.js';
import { appendTo, type CatalogueIndex } from './catalogue-index.js';
import type { Pet, PetField, PetStatus } from './pet.js';

/** A filter on a stored field other than `status`: the animals whose field equals `value`. */
export interface FieldFilter {
  field: PetField;
  value: string | number | bigint | boolean;
}

/**
 * A page asked of a catalogue: at most `limit` animals, of `status` when
 * given, and whose fields equal every `where` filter (listPets' other
 * documented query parameters that name a Pet field).
 */
export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
  where?: readonly FieldFilter[] | undefined;
  /** By id, ascending (the default) or descending: a profile's choice, the interface does not say. */
  order?: 'ascending' | 'descending' | undefined;
}

const NONE: readonly string[] = [];

/** A stored animal read back with its integers exact: a filter's value (a bigint past 2^53) is compared digit for digit. */
const readStored = (json: string): Pet => parseExactJson(json).value as Pet;

/** The index of `field` by value, made on first use from the animals already there (appendStored keeps it up to date after). */
function fieldIndex(index: CatalogueIndex, field: PetField): Map<string, string[]> {
  let byValue = index.byField.get(field);
  if (!byValue) {
    byValue = new Map();
    for (const json of index.ordered) {
      const value = readStored(json)[field];
      if (value !== undefined) appendTo(byValue, String(value), json);
    }
    index.byField.set(field, byValue);
  }
  return byValue;
}

/** The JSON of the animals a query's first filter narrows to, in id order: by status, else by its first field filter, else all. */
function candidates(index: CatalogueIndex, { status, where }: ListQuery): readonly string[] {
  if (status !== undefined) return index.byStatus.get(status) ?? NONE;
  const first = where?.[0];
  if (first) return fieldIndex(index, first.field).get(String(first.value)) ?? NONE;
  return index.ordered;
}

/** Whether `pet` meets every field filter. */
const meetsAll = (pet: Pet, filters: readonly FieldFilter[]): boolean => filters.every(({ field, value }) => pet[field] !== undefined && String(pet[field]) === String(value));

/** The filters the candidates do not already meet: every field filter but the one that chose them. */
const restOf = ({ status, where = [] }: ListQuery): readonly FieldFilter[] => (status === undefined ? where.slice(1) : where);

/** Part of a page: the animals' JSON joined by commas, and how many. */
export interface PagePart {
  json: string;
  count: number;
}

/**
 * The first `limit` animals of `index` that `query` asks for, in id order
 * (from the largest id when `query.order` is descending),
 * as one string: no array in between, as this is every listPets request's
 * work. With `status` alone, or one field filter, a page costs O(limit);
 * each further filter reads the candidates' JSON. A store's page is its
 * start catalogue's part, then its additions' for what is left of the limit.
 */
export function pagePart(index: CatalogueIndex, limit: number, query: ListQuery): PagePart {
  const from = candidates(index, query);
  const rest = restOf(query);
  let json = '';
  let count = 0;
  const descending = query.order === 'descending';
  for (let n = 0; n < from.length && count < limit; n++) {
    const one = from[descending ? from.length - 1 - n : n] as string;
    if (rest.length > 0 && !meetsAll(readStored(one), rest)) continue;
    json = json === '' ? one : `${json},${one}`;
    count += 1;
  }
  return { json, count };
}

/** Whether an animal's JSON (an addition read back from a store) meets every filter of `query`. */
export function meetsQuery(json: string, query: ListQuery): boolean {
  if (query.status === undefined && !query.where?.length) return true;
  const pet = readStored(json);
  return (query.status === undefined || pet.status === query.status) && meetsAll(pet, query.where ?? []);
}

/** Two page parts' JSON as one page, `[…]`. */
export const joinPage = (first: string, rest: string): string => `[${first === '' ? rest : rest === '' ? first : `${first},${rest}`}]`;
