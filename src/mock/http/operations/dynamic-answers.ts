import type { Context } from 'hono';
import type { OperationSpec } from '../../../contract/operations.js';
import { errorBody, ok, type Result } from '../../core/errors.js';
import type { MockEnv } from '../mock-env.js';
import type { NewPet, PetStatus } from '../../core/catalogue/pet.js';
import { readJsonBody } from '../../core/validation/read-json-body.js';
import { readParameter } from '../../core/validation/read-parameter.js';
import { readQuery } from '../../core/validation/read-query.js';
import { generatePet, generatePets, loadFaker } from '../../core/catalogue/generate-pets.js';

/** A generated body for `Prefer: dynamic=true`, or the Error the request gets instead (as the handler would refuse it). */
export type DynamicAnswer = (c: Context<MockEnv>, status: string) => Promise<Result<{ status: number; body: unknown }>>;

/**
 * `Prefer: dynamic=true` per operation: generated data that honours the
 * request as the handler reads it (the same validation), never stored.
 * A non-success status (`code=404, dynamic=true`) gets a generated Error
 * with that status.
 */
export function dynamicAnswers(operation: OperationSpec): DynamicAnswer {
  const success = dynamicSuccess(operation);
  return async (c, status) => {
    const faker = await loadFaker();
    if (!status.startsWith('2')) {
      const code = faker.helpers.slugify(faker.lorem.words(2)).replace(/-/g, '_').toLowerCase();
      return ok({ status: Number(status), body: { code, message: faker.lorem.sentence(), status: Number(status) } });
    }
    const body = await success(c, faker);
    return body.ok ? ok({ status: Number(status), body: body.value }) : body;
  };
}

type Success = (c: Context<MockEnv>, faker: Awaited<ReturnType<typeof loadFaker>>) => Promise<Result<unknown>>;

function dynamicSuccess(operation: OperationSpec): Success {
  switch (operation.operationId) {
    case 'listPets':
      return async (c, faker) => {
        const query = readQuery(operation.query, c.req.queries());
        if (!query.ok) return query;
        return ok(generatePets(faker, query.value.limit as number, query.value.status as PetStatus | undefined));
      };
    case 'getPet': {
      const petId = operation.pathParams.find((p) => p.name === 'petId');
      if (!petId) throw new Error('getPet has no petId path parameter in the document');
      return async (c, faker) => {
        const raw = c.req.param('petId') ?? '';
        const read = readParameter(petId, raw);
        // Not an int64: no animal can have it, as without the preference.
        if (!read.ok) return { ok: false, error: errorBody('pet_not_found', `No animal has the id ${raw}.`) };
        return ok(generatePet(faker, { id: read.value as number }));
      };
    }
    case 'createPet': {
      const body = operation.body;
      if (!body) throw new Error('createPet has no request body in the document');
      return async (c, faker) => {
        const read = readJsonBody(body, c.req.header('content-type'), new Uint8Array(await c.req.arrayBuffer()), c.req.header('content-encoding'));
        if (!read.ok) return read;
        const { name, categoryId, status } = read.value as NewPet;
        const pet = generatePet(faker, { name, categoryId });
        // A status left out stays out, as the handler stores it.
        if (status === undefined) delete pet.status;
        else pet.status = status;
        return ok(pet);
      };
    }
    default:
      throw new Error(`the mock cannot generate answers for operation ${operation.operationId}`);
  }
}
