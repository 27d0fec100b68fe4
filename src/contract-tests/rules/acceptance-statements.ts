import type { Statement } from '../types.js';

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
} satisfies Record<string, Statement>;
