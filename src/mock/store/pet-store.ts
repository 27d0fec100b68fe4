import type { NewPet, Pet, PetStatus } from './pet.js';

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

export interface PetStore {
  list(query: ListQuery): readonly Pet[];
  get(id: number): Pet | undefined;
  create(pet: NewPet): Pet;
  readonly size: number;
}

/**
 * The in-memory catalogue. Ids come from one counter that only grows, so
 * they are unique and increasing: Node runs each handler to completion, and
 * `create` does not await between reading and bumping the counter, so
 * concurrent requests cannot get the same id. Pets are kept in id order
 * (fixtures are sorted once; new ids are always the largest), so listing
 * needs no sort.
 */
export function createPetStore(initial: readonly Pet[] = []): PetStore {
  const byId = new Map<number, Pet>();
  const ordered: Pet[] = [...initial].sort((a, b) => a.id - b.id);
  for (const pet of ordered) {
    if (byId.has(pet.id)) throw new Error(`duplicate pet id ${pet.id}`);
    byId.set(pet.id, documented(pet));
  }
  ordered.splice(0, ordered.length, ...ordered.map((pet) => byId.get(pet.id) as Pet));
  let lastId = ordered.at(-1)?.id ?? 0;

  return {
    list({ limit, status }) {
      if (status === undefined) return ordered.slice(0, limit);
      const found: Pet[] = [];
      for (const pet of ordered) {
        if (pet.status === status) {
          found.push(pet);
          if (found.length === limit) break;
        }
      }
      return found;
    },
    get: (id) => byId.get(id),
    create(newPet) {
      lastId += 1;
      const pet = documented({ ...newPet, id: lastId });
      byId.set(pet.id, pet);
      ordered.push(pet);
      return pet;
    },
    get size() {
      return ordered.length;
    },
  };
}

/**
 * The stored form of a pet: only the documented fields, in the document's
 * order, so unknown fields a client or fixture sends are neither stored nor
 * echoed, and `status` stays absent when it was not given (the interface
 * shows no default). Frozen, since stored pets are handed out to handlers.
 */
function documented(pet: Pet): Pet {
  const stored: Pet = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return Object.freeze(stored);
}
