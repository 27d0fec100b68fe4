import { stringifyExactJson } from '../../../shared/exact-json/stringify-exact-json.js';
import type { NewPet, Pet, PetStatus } from './pet.js';

/**
 * Animals in id order, indexed by id and by status, each kept as one JSON
 * string, made once when it is stored: animals never change (the interface
 * has no update). One string an animal, rather than an object and its
 * JSON: a page of a rare status or a getPet in a catalogue of a million
 * reads animals scattered over the heap, and each object more is one more
 * cache miss (see BENCHMARKS.md, "By catalogue size"). A start catalogue is
 * built once and shared by every store that starts from it (each session,
 * each reset); a store keeps only its own additions in another one.
 */
export interface CatalogueIndex {
  readonly ordered: string[];
  readonly byId: Map<number, string>;
  /** Per status, in id order, so a filtered page costs O(limit) whatever the size. */
  readonly byStatus: Map<PetStatus, string[]>;
  /** The largest id (0 when empty): new animals get ids past it. */
  lastId: number;
}

/** A page asked of a catalogue: at most `limit` animals, of `status` when given. */
export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

/** An animal as a store keeps it: the object and its JSON, made once. */
export interface StoredPet {
  pet: Pet;
  json: string;
}

export function emptyIndex(): CatalogueIndex {
  return { ordered: [], byId: new Map(), byStatus: new Map(), lastId: 0 };
}

/** The stored animal with id `id` and its JSON, made once: what a store keeps, and what a bound is judged on before it keeps it. */
export function storedForm(pet: NewPet, id: number): StoredPet {
  const stored = storedPet(pet, id);
  return { pet: stored, json: stringifyExactJson(stored) };
}

/** Appends a stored animal (see storedForm), its id larger than every id already there. */
export function appendStored(catalogue: CatalogueIndex, stored: Pet, json: string): void {
  catalogue.ordered.push(json);
  catalogue.byId.set(stored.id, json);
  catalogue.lastId = stored.id;
  if (stored.status !== undefined) {
    const list = catalogue.byStatus.get(stored.status);
    if (list) list.push(json);
    else catalogue.byStatus.set(stored.status, [json]);
  }
}

const built = new WeakMap<readonly Pet[], CatalogueIndex>();

/**
 * The catalogue of a start list of animals, built once per list (by
 * identity): sorted by id once, a loop rather than a spread, so a list of a
 * million animals does not overflow the call stack.
 */
export function indexCatalogue(pets: readonly Pet[]): CatalogueIndex {
  let catalogue = built.get(pets);
  if (!catalogue) {
    catalogue = emptyIndex();
    const sorted = pets.slice().sort((a, b) => a.id - b.id);
    for (const pet of sorted) {
      if (catalogue.byId.has(pet.id)) throw new Error(`duplicate pet id ${pet.id}`);
      const { pet: stored, json } = storedForm(pet, pet.id);
      appendStored(catalogue, stored, json);
    }
    built.set(pets, catalogue);
  }
  return catalogue;
}

/**
 * The stored form of a pet: only the documented fields, in the document's
 * order, so unknown fields a client or fixture sends are neither stored nor
 * echoed, and `status` stays absent when it was not given (the interface
 * shows no default).
 */
function storedPet(pet: NewPet, id: number): Pet {
  const stored: Pet = { id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return stored;
}

const NONE: readonly string[] = [];

/** The JSON of the animals of `index` with `status` (all without), in id order. */
const inOrder = (index: CatalogueIndex, status: PetStatus | undefined): readonly string[] => (status === undefined ? index.ordered : (index.byStatus.get(status) ?? NONE));

/** Part of a page: the animals' JSON joined by commas, and how many. */
export interface PagePart {
  json: string;
  count: number;
}

/**
 * The first `limit` animals of `index` (of `status`, if asked) in id
 * order, as one string: no array in between, as this is every listPets
 * request's work. A store's page is its start catalogue's part, then its
 * additions' for what is left of the limit.
 */
export function pagePart(index: CatalogueIndex, limit: number, status: PetStatus | undefined): PagePart {
  const from = inOrder(index, status);
  const count = Math.min(limit, from.length);
  let json = '';
  for (let i = 0; i < count; i++) json = json === '' ? (from[i] as string) : `${json},${from[i] as string}`;
  return { json, count };
}

/** Two page parts' JSON as one page, `[…]`. */
export const joinPage = (first: string, rest: string): string => `[${first === '' ? rest : rest === '' ? first : `${first},${rest}`}]`;
