import { catalogueFullError, type CatalogueFull } from '../../core/catalogue/catalogue-limits.js';
import type { NewPet } from '../../core/catalogue/pet.js';
import { generatePet } from '../../core/catalogue/generate-pets.js';
import type { Result } from '../../core/result.js';
import { readJsonBody } from '../../core/validation/read-json-body.js';
import { andThen } from '../../core/store/maybe-promise.js';
import { readBody, servingState, type Exchange } from '../exchange.js';
import { respond, sendError } from '../respond.js';
import type { OperationFactory } from './served-operation.js';

const WARNED_MAX = 1024;

/**
 * `POST /pets`: stores a new animal and answers it with its id and its
 * `Location` (RFC 9110 §15.3.2: a 201 names the resource it created), where
 * getPet serves it: the collection's path below the base path, then the id;
 * 507 `catalogue_full` when the session has added all its catalogue may hold.
 * The interface says nothing of `Location`: it is the mock's choice, which
 * the contract harness only reports (docs/reference.md, "Where the interface is silent").
 */
export const createPet: OperationFactory<NewPet> = (operation, { logger, basePath }) => {
  const collection = basePath + operation.path;
  const body = operation.body;
  if (!body) throw new Error('createPet has no request body in the document');
  // Sessions already warned about, by id: one line when a session first fills, not one per refused
  // request. Forgotten past WARNED_MAX ids (a line more, rather than memory without bound).
  const warned = new Set<string | null>();
  const full = (x: Exchange, refused: CatalogueFull): Response => {
    const { session } = x;
    const error = catalogueFullError(refused, session.control.limits);
    if (!warned.has(session.id)) {
      if (warned.size >= WARNED_MAX) warned.clear();
      warned.add(session.id);
      const who = session.id === null ? 'the shared default' : `session ${session.id}`;
      logger.warn({ session: session.id, full: refused.full }, `catalogue full in ${who}: ${error.message}`);
    }
    return sendError(x, error);
  };
  return {
    async read(x) {
      const { c } = x;
      const bytes = await readBody(x);
      // The document's schema checked it: it is a NewPet.
      return readJsonBody(body, c.req.header('content-type'), bytes, c.req.header('content-encoding')) as Result<NewPet>;
    },
    serve: (x, newPet) =>
      andThen(servingState(x), (state) =>
        andThen(state.catalogue.create(newPet), (created) =>
          'full' in created ? full(x, created) : respond(x, 201, created.json, { location: `${collection}/${created.pet.id}` }),
        ),
      ),
    generate(faker, { name, categoryId, status }) {
      const pet = generatePet(faker, { name, categoryId });
      // A status left out stays out, as `serve` stores it.
      if (status === undefined) delete pet.status;
      else pet.status = status;
      return pet;
    },
  };
};
