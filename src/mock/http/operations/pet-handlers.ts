import type { Handler } from 'hono';
import type { OperationSpec } from '../../../contract/operations.js';
import { errorBody } from '../../core/errors.js';
import type { MockEnv } from '../mock-env.js';
import { respond, sendError } from '../respond.js';
import { servingState } from '../serving-state.js';
import type { NewPet, PetStatus } from '../../core/catalogue/pet.js';
import { readJsonBody } from '../../core/validation/read-json-body.js';
import { readParameter } from '../../core/validation/read-parameter.js';
import { readQuery } from '../../core/validation/read-query.js';

export type OperationHandlers = Record<string, (operation: OperationSpec) => Handler<MockEnv>>;

/**
 * The handlers of the documented operations, keyed by operationId. Each gets
 * its operation as compiled from the document, so validation rules are the
 * document's, not a copy. Each request is served from the catalogue of its
 * session's scenario (see serving-state.ts).
 */
export function petHandlers(): OperationHandlers {
  return {
    listPets: (operation) =>
      function listPets(c) {
        const query = readQuery(operation.query, c.req.queries());
        if (!query.ok) return sendError(c, query.error);
        // Joined from each animal's JSON, made once when it was stored (animals never change).
        const page = servingState(c).store.listJson({
          limit: query.value.limit as number,
          status: query.value.status as PetStatus | undefined,
        });
        return respond(c, 200, page);
      },

    createPet: (operation) => {
      const body = operation.body;
      if (!body) throw new Error('createPet has no request body in the document');
      return async function createPet(c) {
        const read = readJsonBody(body, c.req.header('content-type'), new Uint8Array(await c.req.arrayBuffer()), c.req.header('content-encoding'));
        if (!read.ok) return sendError(c, read.error);
        const { store } = servingState(c);
        const pet = store.create(read.value as NewPet);
        // The stored JSON when `create` handed back the stored animal itself (a test's altered store may not).
        const stored = store.get(pet.id) === pet ? store.getJson(pet.id) : undefined;
        return respond(c, 201, stored ?? JSON.stringify(pet));
      };
    },

    getPet: (operation) => {
      const petId = operation.pathParams.find((p) => p.name === 'petId');
      if (!petId) throw new Error('getPet has no petId path parameter in the document');
      return function getPet(c) {
        const raw = c.req.param('petId') ?? '';
        // A petId that is not an int64 names no animal: 404, like an unknown id.
        const read = readParameter(petId, raw);
        const pet = read.ok ? servingState(c).store.getJson(read.value as number) : undefined;
        if (pet === undefined) return sendError(c, errorBody('pet_not_found', `No animal has the id ${raw}.`));
        return respond(c, 200, pet);
      };
    },
  };
}
