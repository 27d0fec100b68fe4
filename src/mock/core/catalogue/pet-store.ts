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
export function createPetStore(initial: readonly Pet[] = []): PetStore {
  const start = catalogueOf(initial);
  const added = emptyCatalogue();
  let lastId = start.ordered.at(-1)?.pet.id ?? 0;

  const page = ({ limit, status }: ListQuery): StoredPet[] => {
    const from = (catalogue: Catalogue, room: number) => (status === undefined ? catalogue.ordered : (catalogue.byStatus.get(status) ?? [])).slice(0, room);
    const first = from(start, limit);
    return first.length < limit ? first.concat(from(added, limit - first.length)) : first;
  };
  const stored = (id: number) => added.byId.get(id) ?? start.byId.get(id);

  return {
    list: (query) => page(query).map((s) => s.pet),
    listJson: (query) => `[${page(query).map((s) => s.json).join(',')}]`,
    get: (id) => stored(id)?.pet,
    getJson: (id) => stored(id)?.json,
    create(newPet) {
      lastId += 1;
      return append(added, { ...newPet, id: lastId }).pet;
    },
    get size() {
      return start.ordered.length + added.ordered.length;
    },
  };
}
