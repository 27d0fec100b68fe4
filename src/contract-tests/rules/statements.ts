import type { Statement } from '../../verdict/report.js';

/** The statements of animal-store-interface.md the rules check, quoted. */
export const STATEMENTS = {
  authRequired: {
    section: 'Authentication',
    text: 'The requirement applies to every operation. When the key is missing or invalid, the service answers 401 with an Error body.',
  },
  authScheme: {
    section: 'Authentication',
    text: 'Scheme: HTTP bearer. The API key is sent in the Authorization header as a bearer token: Authorization: Bearer <API_KEY>.',
  },
  listSuccess: { section: 'Endpoints > List animals', text: '200: Pets (JSON array of Pet). Success.' },
  limitDefault: { section: 'Limits', text: '`limit` query parameter, default when omitted: 20.' },
  limitRange: { section: 'Limits', text: '`limit` query parameter: minimum 1, maximum 100. Maximum number of animals returned.' },
  statusFilter: { section: 'Endpoints > List animals', text: '`status`: returns only animals with this availability status.' },
  petShape: {
    section: 'Resources and their fields > Pet',
    text: 'A Pet has id (integer, int64, unique), name (string), categoryId (integer, int64) and optionally status (available, pending, sold).',
  },
  limitSilent: { section: 'Limits', text: 'Minimum 1, maximum 100; what the service answers outside that range is not shown.' },
  repeatedSilent: { section: 'Endpoints > List animals', text: 'Query parameters: limit (integer), status (PetStatus), one value each; the answer to a parameter given more than once is not shown.' },
  statusSilent: { section: 'States and transitions', text: 'PetStatus has exactly the values available, pending, sold; the answer to another value is not shown.' },
  createSuccess: { section: 'Endpoints > Add an animal', text: '201: Pet. Animal added. The body carries the assigned id.' },
  idAssigned: { section: 'Resources and their fields > NewPet', text: '`id` is not part of NewPet. It is assigned by the service; unique identifier.' },
  createBadRequest: { section: 'Endpoints > Add an animal', text: '400: Error. Body is missing required fields or contains invalid values.' },
  createMediaType: { section: 'What the service does', text: 'Requests and responses use the media type application/json; the answer to another is not shown.' },
  contentCodingSilent: {
    section: 'What the service does',
    text: 'Requests and responses use the media type application/json; the answer to a body under a content coding (Content-Encoding, RFC 9110 §8.4) is not shown.',
  },
  acceptSilent: { section: 'What the service does', text: 'Requests and responses use the media type application/json; the answer to a request whose Accept does not accept it is not shown.' },
  statusOptional: { section: 'Resources and their fields > NewPet', text: '`status` is not required; its default value is not shown.' },
  getSuccess: { section: 'Endpoints > Get an animal (deprecated)', text: '200: Pet. The animal exists.' },
  getNotFound: { section: 'Endpoints > Get an animal (deprecated)', text: '404: Error. The requested resource could not be found.' },
  otherPaths: {
    section: 'Endpoints > Other operations',
    text: 'Any other operations (update or delete of an animal, for example): not shown. What a path no operation has gets is not shown; every error response has the Error body.',
  },
  deprecation: {
    section: 'Versioning',
    text: 'GET /pets/{petId} is deprecated and will be removed on 5 December 2030; the replacement is GET /pets with the status filter. (How it is signalled is not shown.)',
  },
} satisfies Record<string, Statement>;

/** How a statement is cited in a finding's "expected". */
export const cite = (statement: Statement): string => `${statement.section}: ${statement.text}`;
