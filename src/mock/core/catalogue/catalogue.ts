import type { NewPet, Pet, PetStatus } from './pet.js';

/** A stored animal with its JSON, made once when it is stored: animals never change (the interface has no update). */
export interface StoredPet {
  readonly pet: Pet;
  readonly json: string;
}

/**
 * Animals in id order, indexed by id and by status, each serialised once.
 * A start catalogue is built once and shared by every store that starts
 * from it (each session, each reset); a store keeps only its own additions
 * in another one.
 */
export interface Catalogue {
  readonly ordered: StoredPet[];
  readonly byId: Map<number, StoredPet>;
  /** Per status, in id order, so a filtered page costs O(limit) whatever the size. */
  readonly byStatus: Map<PetStatus, StoredPet[]>;
}

export function emptyCatalogue(): Catalogue {
  return { ordered: [], byId: new Map(), byStatus: new Map() };
}

/**
 * Appends an animal with id `id` (by default its own), larger than every id
 * already there, so the catalogues stay in id order. Taking the id apart
 * spares createPet a copy of the client's object.
 */
export function append(catalogue: Catalogue, pet: NewPet, id = (pet as Pet).id): StoredPet {
  const stored = storedPet(pet, id);
  catalogue.ordered.push(stored);
  catalogue.byId.set(stored.pet.id, stored);
  if (stored.pet.status !== undefined) {
    const list = catalogue.byStatus.get(stored.pet.status);
    if (list) list.push(stored);
    else catalogue.byStatus.set(stored.pet.status, [stored]);
  }
  return stored;
}

const built = new WeakMap<readonly Pet[], Catalogue>();

/**
 * The catalogue of a start list of animals, built once per list (by
 * identity): sorted by id once, a loop rather than a spread, so a list of a
 * million animals does not overflow the call stack.
 */
export function catalogueOf(pets: readonly Pet[]): Catalogue {
  let catalogue = built.get(pets);
  if (!catalogue) {
    catalogue = emptyCatalogue();
    const sorted = pets.slice().sort((a, b) => a.id - b.id);
    for (const pet of sorted) {
      if (catalogue.byId.has(pet.id)) throw new Error(`duplicate pet id ${pet.id}`);
      append(catalogue, pet);
    }
    built.set(pets, catalogue);
  }
  return catalogue;
}

/**
 * The stored form of a pet: only the documented fields, in the document's
 * order, so unknown fields a client or fixture sends are neither stored nor
 * echoed, and `status` stays absent when it was not given (the interface
 * shows no default). Frozen, since stored pets are handed out to handlers.
 */
function storedPet(pet: NewPet, id: number): StoredPet {
  const stored: Pet = { id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return { pet: Object.freeze(stored), json: JSON.stringify(stored) };
}
