import type { PetStatus } from '../../core/catalogue/pet.js';
import { generatePets } from '../../core/catalogue/generate-pets.js';
import type { ListQuery } from '../../core/catalogue/pet-store.js';
import { ok } from '../../core/result.js';
import { readQuery } from '../../core/validation/read-query.js';
import { searchOf } from '../../core/validation/query-string.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { servingState } from '../exchange.js';
import { respond } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

/** `GET /pets`: a page of the catalogue, in id order, of one status or all. */
export const listPets: OperationFactory<ListQuery> = (operation) => ({
  read(x) {
    const query = readQuery(operation.query, searchOf(x.c.req.url));
    if (!query.ok) return query;
    return ok({ limit: query.value.limit as number, status: query.value.status as PetStatus | undefined });
  },
  // Joined from each animal's JSON, made once when it was stored (animals never change).
  serve: (x, query) => andThen(servingState(x), (state) => andThen(state.catalogue.listJson(query), (page) => respond(x, 200, page))),
  generate: (faker, { limit, status }) => generatePets(faker, limit, status),
});
