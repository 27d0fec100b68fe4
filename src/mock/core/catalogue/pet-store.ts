import { appendStored, catalogueOf, emptyCatalogue, storedForm, type Catalogue } from './catalogue.js';
import type { CatalogueBudget, CatalogueFull, CatalogueUse } from './catalogue-limits.js';
import type { NewPet, Pet, PetStatus } from './pet.js';

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

export interface PetStore {
  list(query: ListQuery): readonly Pet[];
  get(id: number): Pet | undefined;
  /** Stores an animal; without a budget, always. */
  create(pet: NewPet): Pet;
  /** With the session's budget: refused, storing nothing, when the animal would take the session past a bound. */
  create(pet: NewPet, budget: CatalogueBudget | undefined): Pet | CatalogueFull;
  /** The page as JSON, joined from each animal's stored JSON: the bytes JSON.stringify(list(query)) gives. */
  listJson(query: ListQuery): string;
  /** One animal as JSON, as stored. */
  getJson(id: number): string | undefined;
  readonly size: number;
  /** What this store added to its start catalogue: animals, and UTF-8 bytes of their JSON. */
  readonly added: CatalogueUse;
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
const NONE: readonly string[] = [];

/** The JSON a store made for an animal it created, by the object `create` gave back (see createdJson). */
const created = new WeakMap<Pet, string>();

/**
 * The stored JSON of an animal `create` has just given back, so createPet
 * sends the stored bytes without stringifying again; undefined for any
 * other object (a test's altered store may hand back a changed copy).
 */
export const createdJson = (pet: Pet): string | undefined => created.get(pet);

export function createPetStore(initial: readonly Pet[] = []): PetStore {
  const start = catalogueOf(initial);
  const added = emptyCatalogue();
  let lastId = start.lastId;
  let addedBytes = 0;

  const inOrder = (catalogue: Catalogue, status: PetStatus | undefined): readonly string[] =>
    status === undefined ? catalogue.ordered : (catalogue.byStatus.get(status) ?? NONE);
  /** Calls `each` with the JSON of the page's animals in id order: the start catalogue's, then the additions'. */
  const onPage = ({ limit, status }: ListQuery, each: (json: string) => void): void => {
    const first = inOrder(start, status);
    const firstCount = Math.min(limit, first.length);
    for (let i = 0; i < firstCount; i++) each(first[i] as string);
    const rest = inOrder(added, status);
    const restCount = Math.min(limit - firstCount, rest.length);
    for (let i = 0; i < restCount; i++) each(rest[i] as string);
  };
  const stored = (id: number) => added.byId.get(id) ?? start.byId.get(id);

  return {
    // Parsed from the stored JSON: lists and look-ups of objects are for the admin side and tests, not the API's answers.
    list(query) {
      const pets: Pet[] = [];
      onPage(query, (json) => pets.push(thaw(json)));
      return pets;
    },
    // No intermediate arrays: this is every listPets request's work.
    listJson(query) {
      let json = '';
      onPage(query, (one) => (json = json === '' ? one : `${json},${one}`));
      return `[${json}]`;
    },
    get(id) {
      const json = stored(id);
      return json === undefined ? undefined : thaw(json);
    },
    getJson: stored,
    // The overloads' one body: a Pet, unless a budget refuses it.
    create: ((newPet: NewPet, budget?: CatalogueBudget): Pet | CatalogueFull => {
      const { pet, json } = storedForm(newPet, lastId + 1);
      const bytes = Buffer.byteLength(json);
      const refused = budget && beyond(budget, bytes);
      if (refused) return refused;
      lastId = pet.id;
      appendStored(added, pet, json);
      addedBytes += bytes;
      Object.freeze(pet);
      created.set(pet, json);
      return pet;
    }) as PetStore['create'],
    get size() {
      return start.ordered.length + added.ordered.length;
    },
    get added() {
      return { pets: added.ordered.length, bytes: addedBytes };
    },
  };
}

/** The bound one more animal of `bytes` would cross, if any: judged on the exact JSON it would be stored as. */
function beyond(budget: CatalogueBudget, bytes: number): CatalogueFull | undefined {
  const used = budget.used();
  if (used.pets >= budget.limits.maxPets) return { full: 'pets' };
  if (used.bytes + bytes > budget.limits.maxBytes) return { full: 'bytes' };
  return undefined;
}

/** An animal from its stored JSON, frozen: stored animals never change. */
const thaw = (json: string): Pet => Object.freeze(JSON.parse(json) as Pet);
