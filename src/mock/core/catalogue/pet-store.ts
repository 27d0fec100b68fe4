import { append, catalogueOf, emptyCatalogue, type Catalogue, type StoredPet } from './catalogue.js';
import type { NewPet, Pet, PetStatus } from './pet.js';

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

export interface PetStore {
  list(query: ListQuery): readonly Pet[];
  get(id: number): Pet | undefined;
  create(pet: NewPet): Pet;
  /** The page as JSON, joined from each animal's stored JSON: the bytes JSON.stringify(list(query)) gives. */
  listJson(query: ListQuery): string;
  /** One animal as JSON, as stored. */
  getJson(id: number): string | undefined;
  readonly size: number;
}

/**
 * The in-memory catalogue: the start catalogue, shared with every other
 * store that starts from the same list (built once, see catalogueOf), and
 * this store's own additions. Opening a store costs O(1) whatever the start
 * catalogue's size, and a page O(limit), with or without a status.
 *
 * Ids come from one counter that only grows, so they are unique and
 * increasing: Node runs each handler to completion, and `create` does not
 * await between reading and bumping the counter, so concurrent requests
 * cannot get the same id. Additions get ids past the start catalogue's, so
 * start animals then additions is id order.
 */
const NONE: readonly StoredPet[] = [];

export function createPetStore(initial: readonly Pet[] = []): PetStore {
  const start = catalogueOf(initial);
  const added = emptyCatalogue();
  let lastId = start.ordered.at(-1)?.pet.id ?? 0;

  const inOrder = (catalogue: Catalogue, status: PetStatus | undefined): readonly StoredPet[] =>
    status === undefined ? catalogue.ordered : (catalogue.byStatus.get(status) ?? NONE);
  /** Calls `each` with the page's animals in id order: the start catalogue's, then the additions'. */
  const onPage = ({ limit, status }: ListQuery, each: (stored: StoredPet) => void): void => {
    const first = inOrder(start, status);
    const firstCount = Math.min(limit, first.length);
    for (let i = 0; i < firstCount; i++) each(first[i] as StoredPet);
    const rest = inOrder(added, status);
    const restCount = Math.min(limit - firstCount, rest.length);
    for (let i = 0; i < restCount; i++) each(rest[i] as StoredPet);
  };
  const stored = (id: number) => added.byId.get(id) ?? start.byId.get(id);

  return {
    list(query) {
      const pets: Pet[] = [];
      onPage(query, (stored) => pets.push(stored.pet));
      return pets;
    },
    // No intermediate arrays: this is every listPets request's work.
    listJson(query) {
      let json = '';
      onPage(query, (stored) => (json = json === '' ? stored.json : `${json},${stored.json}`));
      return `[${json}]`;
    },
    get: (id) => stored(id)?.pet,
    getJson: (id) => stored(id)?.json,
    create(newPet) {
      lastId += 1;
      return append(added, newPet, lastId).pet;
    },
    get size() {
      return start.ordered.length + added.ordered.length;
    },
  };
}
