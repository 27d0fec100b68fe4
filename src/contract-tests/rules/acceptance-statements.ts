import type { Statement } from '../../verdict/report.js';

/** The statements of animal-store-interface.md that say what createPet must accept, quoted. */
export const ACCEPTANCE = {
  validAccepted: {
    section: 'Endpoints > Add an animal',
    text: '201: Pet. Animal added. 400 only when the body is missing required fields or contains invalid values (NewPet: name string, categoryId integer int64, status optional PetStatus; limits on name length and body size, rate limits: not shown).',
  },
  mediaType: {
    section: 'What the service does',
    text: 'Requests and responses use the media type application/json (Endpoints > Add an animal: request body application/json). RFC 9110 §8.3.1: type, subtype and parameter names are case-insensitive, and parameters may follow.',
  },
  extraMember: {
    section: 'Resources and their fields > NewPet',
    text: 'NewPet has name, categoryId and status; it does not forbid other members. Errors: the error statuses are 400 (createPet), 401 and 404: no 5xx.',
  },
  silentName: {
    section: 'Resources and their fields > NewPet',
    text: 'name is a string and required; no length, characters or uniqueness are shown. createPet: 201 Pet, or 400 Error (body is missing required fields or contains invalid values).',
  },
  bodySize: {
    section: 'Endpoints > Add an animal',
    text: 'Request body: required, application/json, shape NewPet; size limits are not shown. RFC 9110 §15.5.14: a server may refuse a body larger than it will process with 413.',
  },
  repeatedMember: {
    section: 'Endpoints > Add an animal',
    text: 'Request body: required, application/json, shape NewPet. RFC 8259 §4: the names within an object SHOULD be unique; where one repeats, what software does is unpredictable (it may read the last, the first, or refuse the text). createPet: 201 Pet, or 400 Error.',
  },
  chunked: {
    section: 'Endpoints > Add an animal',
    text: 'Request body: required, application/json, shape NewPet. RFC 9112 §6.1: a body sent chunked is the same body; §6.3: a server may ask for a length with 411.',
  },
} satisfies Record<string, Statement>;
