import { PET_FIELDS, type PetField, type PetStatus } from '../../core/catalogue/pet.js';
import { generatePets } from '../../core/catalogue/generate-pets.js';
import type { FieldFilter, ListQuery } from '../../core/catalogue/catalogue-page.js';
import { ok } from '../../core/result.js';
import { profiledError } from '../../core/errors.js';
import { readQuery, type QueryChoices } from '../../core/validation/read-query.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import type { ProfiledError } from '../../../shared/profile/profile-choice-types.js';
import { queryValues, searchOf } from '../../core/validation/query-string.js';
import { readParameter } from '../../core/validation/read-parameter.js';
import type { ParameterSpec } from '../../../document/operations.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { servingState } from '../exchange.js';
import { respond } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

type RepeatedChoice = ActiveProfile['choices']['repeated-parameter'];

const isPetField = (name: string): name is PetField => (PET_FIELDS as readonly string[]).includes(name);

/**
 * `GET /pets`: a page of the catalogue, in id order. `limit` is the page's
 * size; every other documented query parameter that names a Pet field is a
 * filter (the animals whose field equals it), so a filter added to the
 * document is served with no code. A documented parameter that names no
 * field is read and checked, then has no effect: the interface does not say
 * what it would do. Where the interface is silent (a refused `limit` or
 * `status`, one given twice, past the maximum, the order) the active profile chooses.
 */
export const listPets: OperationFactory<ListQuery> = (operation, { profile }) => {
  const filters = operation.query.map((spec) => spec.name).filter((name): name is Exclude<PetField, 'status'> => name !== 'status' && isPetField(name));
  return {
    read(x) {
      const search = searchOf(x.c.req.url);
      // The other parameters are read as ever: a refused limit keeps its answer.
      const empty = profile.choices.status === 'empty' && refusedStatus(operation.query, search, profile.choices['repeated-parameter']);
      const choices = queryChoices(profile);
      const query = readQuery(operation.query, search, empty ? { ...choices, ignore: new Set([...(choices.ignore ?? []), 'status']) } : choices);
      if (!query.ok) return query;
      if (empty) return ok({ limit: 0, where: [], order: profile.choices.order });
      const { limit, status } = query.value as { limit: number; status?: PetStatus };
      const where: FieldFilter[] = [];
      for (const field of filters) {
        const value = query.value[field];
        if (value !== undefined) where.push({ field, value: value as FieldFilter['value'] });
      }
      return ok({ limit, status, where, order: profile.choices.order });
    },
    // Joined from each animal's JSON, made once when it was stored (animals never change).
    serve: (x, query) => andThen(servingState(x), (state) => andThen(state.catalogue.listJson(query), (page) => respond(x, 200, page))),
    // Made in id order; a descending profile reads them from the end, as it does the catalogue.
    generate: (faker, { limit, status, where, order }) => (order === 'descending' ? generatePets(faker, limit, status, where).reverse() : generatePets(faker, limit, status, where)),
  };
};

const CLAMP_LIMIT: ReadonlySet<string> = new Set(['limit']);

/** A `status` that is no PetStatus, given once or read as one of its values: with the profile's `empty`, a filter no animal matches, so a page of none. */
function refusedStatus(specs: readonly ParameterSpec[], search: string, repeated: RepeatedChoice): boolean {
  const spec = specs.find((parameter) => parameter.name === 'status');
  const given = queryValues(search, 'status');
  const read = given.count === 1 || (given.count > 1 && repeated !== 'refused');
  return spec !== undefined && read && !readParameter(spec, (repeated === 'last' ? given.last : given.first) as string).ok;
}

/** The profile's answers to a refused `limit` or `status` (an Error, or as without it), and whether a `limit` past the maximum is clamped. */
function queryChoices(profile: ActiveProfile): QueryChoices {
  const { limit, status } = profile.choices;
  // `empty` is read before (refusedStatus): here it is never reached.
  const answers: Record<string, ProfiledError | 'ignored'> = { limit: limit.refused, ...(status !== 'empty' && { status }) };
  const ignored = Object.keys(answers).filter((name) => answers[name] === 'ignored');
  return {
    refused: (name, message) => {
      const answer = answers[name];
      return answer === undefined || answer === 'ignored' ? undefined : profiledError(answer, message);
    },
    ...(limit['above-maximum'] === 'clamped' && { clamp: CLAMP_LIMIT }),
    ...(ignored.length > 0 && { ignore: new Set(ignored) }),
    ...(profile.choices['repeated-parameter'] !== 'refused' && { repeated: profile.choices['repeated-parameter'] }),
  };
}
