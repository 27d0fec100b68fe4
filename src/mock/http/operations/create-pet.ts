import type { ErrorObject } from 'ajv';
import { catalogueFullError, type CatalogueFull } from '../../core/catalogue/catalogue-limits.js';
import { nameTakenMessage, type NameTaken } from '../../core/catalogue/name-taken.js';
import type { StoredPet } from '../../core/catalogue/catalogue-index.js';
import type { NewPet } from '../../core/catalogue/pet.js';
import { generatePet } from '../../core/catalogue/generate-pets.js';
import { failed, type Result } from '../../core/result.js';
import { profiledError, type ErrorBody } from '../../core/errors.js';
import type { AcceptedOr } from '../../../shared/profile/profile-choice-types.js';
import type { ProfileChoices } from '../../../shared/profile/profile-points.js';
import { fieldRefusal, memberRefusal, nameRefusal } from './new-pet-refusals.js';
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
 * That, a status left out, a member NewPet does not name, a member named twice, the names refused
 * (empty, with a control character, too long, or taken: the store checks and
 * stores in one step) and the answers to a refused body are the active
 * profile's choices.
 */
export const createPet: OperationFactory<NewPet> = (operation, { logger, basePath, profile }) => {
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
  // Every answer a create can give: narrowed one by one, so an answer added to the union leaves `created` no StoredPet and this no longer compiles.
  const answer = (x: Exchange, newPet: NewPet, created: StoredPet | CatalogueFull | NameTaken, taken: AcceptedOr): Response => {
    if ('full' in created) return full(x, created);
    // The store refuses a taken name only when asked, so `taken` is the profile's refusal here.
    if ('taken' in created) return sendError(x, profiledError(taken === 'accepted' ? { status: 400, code: 'name_taken' } : taken, nameTakenMessage(newPet.name)));
    return respond(x, 201, created.json, profile.choices.location === 'sent' ? { location: `${collection}/${created.pet.id}` } : undefined);
  };
  return {
    async read(x) {
      const { c } = x;
      const { choices } = profile;
      const bytes = await readBody(x);
      // A profile may ignore the content coding, as a server that never looks at Content-Encoding does: the bytes are read as they are.
      const coding = choices['content-coding'] === 'ignored' ? undefined : c.req.header('content-encoding');
      const read = readJsonBody(body, c.req.header('content-type'), bytes, coding, choices['duplicate-member']);
      // The schema's errors, when it refused the body: `validate` keeps its last call's until the next.
      if (!read.ok) return failed('chosen' in read ? read.error : refusal(choices, read.error, bytes, body.validate.errors));
      // The document's schema checked it: it is a NewPet.
      const newPet = read.value as NewPet;
      const refused = memberRefusal(choices, newPet) ?? nameRefusal(choices, newPet.name);
      if (refused) return failed(refused);
      return { ok: true, value: withDefaultStatus(newPet, choices['default-status']) };
    },
    serve: (x, newPet) => {
      // Read once: a profile reloaded meanwhile does not change what this create asked of the store.
      const taken = profile.choices['taken-name'];
      return andThen(servingState(x), (state) => andThen(state.catalogue.create(newPet, { refuseTakenName: taken !== 'accepted' }), (created) => answer(x, newPet, created, taken)));
    },
    generate(faker, { name, categoryId, status }) {
      const pet = generatePet(faker, { name, categoryId });
      // A status left out stays out (unless the profile gives one: `read` has set it then), as `serve` stores it.
      if (status === undefined) delete pet.status;
      else pet.status = status;
      return pet;
    },
  };
};

/** A NewPet without a status gets the profile's default one, if any. */
const withDefaultStatus = (newPet: NewPet, status: ProfileChoices['default-status']): NewPet =>
  status === 'none' || newPet.status !== undefined ? newPet : { ...newPet, status };

/**
 * The profile's answer to a refused body: under a content coding, empty,
 * not JSON, JSON of another kind, another media type, or an object with a field missing or
 * a value the schema refuses (new-pet-refusals.ts).
 */
function refusal(choices: ProfileChoices, error: ErrorBody, bytes: Uint8Array, schemaErrors: readonly ErrorObject[] | null | undefined): ErrorBody {
  switch (error.code) {
    case 'missing_body':
      return profiledError(choices['missing-body'], error.message);
    case 'malformed_json':
      return profiledError(choices['malformed-json'], error.message);
    case 'unsupported_content_type':
      return profiledError(choices['media-type'], error.message);
    case 'unsupported_content_encoding':
      // Only a refusal gets here: an ignored coding is never checked.
      return choices['content-coding'] === 'ignored' ? error : profiledError(choices['content-coding'], error.message);
    case 'invalid_body':
      // Well-formed JSON (it parsed): an object starts with `{`, after any whitespace or BOM.
      if (firstByte(bytes) !== 0x7b) return profiledError(choices['body-not-object'], error.message);
      return fieldRefusal(choices, schemaErrors ?? [], error.message);
    default:
      return error;
  }
}

/** The first byte past JSON's whitespace (RFC 8259 §2) and a UTF-8 byte-order mark. */
function firstByte(bytes: Uint8Array): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i];
}
