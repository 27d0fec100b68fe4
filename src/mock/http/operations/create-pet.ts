import type { NewPet } from '../../core/catalogue/pet.js';
import { createdJson } from '../../core/catalogue/pet-store.js';
import { generatePet } from '../../core/catalogue/generate-pets.js';
import type { Result } from '../../core/result.js';
import { readJsonBody } from '../../core/validation/read-json-body.js';
import { servingState } from '../exchange.js';
import { respond } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

/** `POST /pets`: stores a new animal and answers it with its id. */
export const createPet: OperationFactory<NewPet> = (operation) => {
  const body = operation.body;
  if (!body) throw new Error('createPet has no request body in the document');
  return {
    async read(x) {
      const { c } = x;
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      // The document's schema checked it: it is a NewPet.
      return readJsonBody(body, c.req.header('content-type'), bytes, c.req.header('content-encoding')) as Result<NewPet>;
    },
    serve(x, newPet) {
      const pet = servingState(x).store.create(newPet);
      // The stored JSON when `create` handed back the animal it stored (a test's altered store may not).
      return respond(x, 201, createdJson(pet) ?? JSON.stringify(pet));
    },
    generate(faker, { name, categoryId, status }) {
      const pet = generatePet(faker, { name, categoryId });
      // A status left out stays out, as `serve` stores it.
      if (status === undefined) delete pet.status;
      else pet.status = status;
      return pet;
    },
  };
};
