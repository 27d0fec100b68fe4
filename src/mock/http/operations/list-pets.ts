import { PET_FIELDS, type PetField, type PetStatus } from '../../core/catalogue/pet.js';
import { generatePets } from '../../core/catalogue/generate-pets.js';
import type { FieldFilter, ListQuery } from '../../core/catalogue/catalogue-page.js';
import { ok } from '../../core/result.js';
import { readQuery } from '../../core/validation/read-query.js';
import { searchOf } from '../../core/validation/query-string.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { servingState } from '../exchange.js';
import { respond } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

const isPetField = (name: string): name is PetField => (PET_FIELDS as readonly string[]).includes(name);

/**
 * `GET /pets`: a page of the catalogue, in id order. `limit` is the page's
 * size; every other documented query parameter that names a Pet field is a
 * filter (the animals whose field equals it), so a filter added to the
 * document is served with no code. A documented parameter that names no
 * field is read and checked, then has no effect: the interface does not say
 * what it would do.
 */
export const listPets: OperationFactory<ListQuery> = (operation) => {
  const filters = operation.query.map((spec) => spec.name).filter((name): name is Exclude<PetField, 'status'> => name !== 'status' && isPetField(name));
  return {
    read(x) {
      const query = readQuery(operation.query, searchOf(x.c.req.url));
      if (!query.ok) return query;
      const { limit, status } = query.value as { limit: number; status?: PetStatus };
      const where: FieldFilter[] = [];
      for (const field of filters) {
        const value = query.value[field];
        if (value !== undefined) where.push({ field, value: value as FieldFilter['value'] });
      }
      return ok({ limit, status, where });
    },
    // Joined from each animal's JSON, made once when it was stored (animals never change).
    serve: (x, query) => andThen(servingState(x), (state) => andThen(state.catalogue.listJson(query), (page) => respond(x, 200, page))),
    generate: (faker, { limit, status, where }) => generatePets(faker, limit, status, where),
  };
};
