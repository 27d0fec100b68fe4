import { stringifyExactJson } from '../../../shared/exact-json/stringify-exact-json.js';
import type { NewPet, Pet, PetField, PetStatus } from './pet.js';

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
  /**
   * Per other field a listPets filter has asked for, per value (as text), in
   * id order: made on the first page that asks (catalogue-page.ts), then kept
   * up to date by appendStored. Only fields asked for cost memory.
   */
  readonly byField: Map<PetField, Map<string, string[]>>;
  /** The largest id (0 when empty): new animals get ids past it. */
  lastId: number;
}

/** An animal as a store keeps it: the object and its JSON, made once. */
export interface StoredPet {
  pet: Pet;
  json: string;
}

export function emptyIndex(): CatalogueIndex {
  return { ordered: [], byId: new Map(), byStatus: new Map(), byField: new Map(), lastId: 0 };
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
  if (stored.status !== undefined) appendTo(catalogue.byStatus, stored.status, json);
  for (const [field, byValue] of catalogue.byField) {
    const value = stored[field];
    if (value !== undefined) appendTo(byValue, String(value), json);
  }
}

/** `json` at the end of `key`'s list in `lists`. */
export function appendTo<K>(lists: Map<K, string[]>, key: K, json: string): void {
  const list = lists.get(key);
  if (list) list.push(json);
  else lists.set(key, [json]);
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

