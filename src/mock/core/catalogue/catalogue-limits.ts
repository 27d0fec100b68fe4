import { errorBody, type ErrorBody } from '../errors.js';

/**
 * How much one session (the shared default counts as one) may add to its
 * catalogue, across all its scenarios: the start catalogue is shared by
 * every session and costs nothing per session, but every animal a client
 * creates is kept until a reset, so without a bound one client with a key
 * could fill the heap (about 4,300 creates of 1 MiB names did, unbounded).
 */
export interface CatalogueLimits {
  /** Animals a session may add (`--max-pets`). */
  maxPets: number;
  /** UTF-8 bytes of the stored JSON of the animals a session added (`--max-catalogue-bytes`). */
  maxBytes: number;
}

/** What a session, or one store of it, has added: animals, and bytes of their stored JSON. */
export interface CatalogueUse {
  pets: number;
  bytes: number;
}

/** The limits, and what the session has used of them so far (read at each create). */
export interface CatalogueBudget {
  readonly limits: CatalogueLimits;
  used(): CatalogueUse;
}

/** Why a create was refused: the bound it would have crossed. */
export interface CatalogueFull {
  full: 'pets' | 'bytes';
}

// Measured (bench/bounds-memory.ts, docs/reference.md, "Bounds"): 10,000 small animals
// take about 1.5 MiB of heap, and names with a character past U+00FF take
// two bytes a character in V8, so a full session takes at most about 3 MiB:
// 101 full sessions with full journals stay under half a GiB. 1 MiB still
// holds the largest animal a body can carry (1 MiB of body).
export const DEFAULT_MAX_PETS = 10_000;
export const DEFAULT_MAX_CATALOGUE_BYTES = 1024 * 1024;
export const DEFAULT_CATALOGUE_LIMITS: CatalogueLimits = { maxPets: DEFAULT_MAX_PETS, maxBytes: DEFAULT_MAX_CATALOGUE_BYTES };

/**
 * The answer to a create past a bound: 507 Insufficient Storage (RFC 4918
 * §11.5, "unable to store the representation needed to complete the
 * request"), naming the flag that raises the bound and the reset that
 * empties the catalogue.
 */
export function catalogueFullError({ full }: CatalogueFull, limits: CatalogueLimits): ErrorBody {
  const bound = full === 'pets' ? `${limits.maxPets} animals (--max-pets)` : `${limits.maxBytes} bytes of animals' JSON (--max-catalogue-bytes)`;
  return errorBody(
    'catalogue_full',
    `this session's catalogue is full: it may add at most ${bound}. POST /__mock/reset empties it (the animals created are gone); a larger bound needs the mock restarted with a larger ${full === 'pets' ? '--max-pets' : '--max-catalogue-bytes'}.`,
  );
}
