import { generatePet } from '../../core/catalogue/generate-pets.js';
import { errorBody, type ErrorBody } from '../../core/errors.js';
import { failed, ok } from '../../core/result.js';
import { readParameter } from '../../core/validation/read-parameter.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { servingState } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

/** `GET /pets/{petId}`: one animal, or 404. */
export const getPet: OperationFactory<{ id: number; raw: string }> = (operation) => {
  const petId = operation.pathParams.find((p) => p.name === 'petId');
  if (!petId) throw new Error('getPet has no petId path parameter in the document');
  return {
    read(x) {
      const raw = x.c.req.param('petId') ?? '';
      const read = readParameter(petId, raw);
      // A petId that is not an int64 names no animal: 404, like an unknown id. Nor does
      // one past 2^53 (read as a bigint): the mock assigns its ids, all safe integers.
      return read.ok && typeof read.value === 'number' ? ok({ id: read.value, raw }) : failed(notFound(raw));
    },
    serve: (x, { id, raw }) =>
      andThen(servingState(x), (state) => andThen(state.catalogue.getJson(id), (pet) => (pet === undefined ? sendError(x, notFound(raw)) : respond(x, 200, pet)))),
    generate: (faker, { id }) => generatePet(faker, { id }),
  };
};

const notFound = (raw: string): ErrorBody => errorBody('pet_not_found', `No animal has the id ${raw}.`);
