import { utf8Length } from '../../../../shared/utf8-length.js';
import { appendStored, emptyIndex, indexCatalogue, storedForm, type StoredPet } from '../../catalogue/catalogue-index.js';
import { joinPage, pagePart, type ListQuery } from '../../catalogue/catalogue-page.js';
import type { CatalogueBudget, CatalogueFull, CatalogueUse } from '../../catalogue/catalogue-limits.js';
import type { NameTaken } from '../../catalogue/name-taken.js';
import type { NewPet, Pet } from '../../catalogue/pet.js';
import { nameKey, startNameKeys } from '../../catalogue/name-keys.js';
import type { CreateOptions } from '../mock-store.js';

/** One scenario state's catalogue in memory: the start catalogue and this state's additions. */
export interface MemoryCatalogue {
  /** The page as JSON, joined from each animal's stored JSON. */
  listJson(query: ListQuery): string;
  /** One animal as JSON, as stored. */
  getJson(id: number): string | undefined;
  /** Stores an animal with the next id, unless its name is taken and `options` refuse that, or `budget` refuses it (nothing stored then). */
  create(pet: NewPet, budget: CatalogueBudget, options?: CreateOptions): StoredPet | CatalogueFull | NameTaken;
  readonly size: number;
  /** What this catalogue added to its start: animals, and UTF-8 bytes of their JSON. */
  readonly added: CatalogueUse;
}

/**
 * The in-memory catalogue: the start catalogue, indexed once and shared
 * with every other catalogue that starts from the same list (see
 * indexCatalogue), and this one's own additions. Opening one costs O(1)
 * whatever the start catalogue's size, and a page O(limit), with or
 * without a status.
 *
 * Ids come from one counter that only grows, so they are unique and
 * increasing: Node runs each handler to completion, and `create` does not
 * await between reading and bumping the counter, so concurrent requests
 * cannot get the same id. Additions get ids past the start catalogue's, so
 * start animals then additions is id order.
 *
 * A create asking to refuse a taken name checks in O(1): the start
 * catalogue's names (see startNameKeys) and a Set of the additions' names.
 * The Set is built on the first such create from the additions' JSON, so
 * it holds the names stored before anyone asked too, then kept on every
 * create: a mock never asked pays nothing (about 66 bytes of heap an
 * addition, measured with bench/bounds-memory.ts). A reset, an activation
 * or a reload makes a new catalogue, which starts with none. The Set grows
 * only with the additions, so the catalogue's limits bound it too: at most
 * `maxPets` names, each a slice of an addition's JSON (see nameKey), whose
 * bytes `maxBytes` counts.
 */
export function createMemoryCatalogue(initial: readonly Pet[]): MemoryCatalogue {
  const start = indexCatalogue(initial);
  const added = emptyIndex();
  let addedNames: Set<string> | undefined;
  const taken = (json: string): boolean => {
    const name = nameKey(json);
    addedNames ??= new Set(added.ordered.map(nameKey));
    return addedNames.has(name) || startNameKeys(initial).has(name);
  };
  let lastId = start.lastId;
  let addedBytes = 0;

  return {
    listJson(query: ListQuery) {
      // Additions have the larger ids: first when descending.
      const [head, tail] = query.order === 'descending' ? [added, start] : [start, added];
      const first = pagePart(head, query.limit, query);
      return joinPage(first.json, pagePart(tail, query.limit - first.count, query).json);
    },
    getJson: (id) => added.byId.get(id) ?? start.byId.get(id),
    create(newPet, budget, options) {
      const stored = storedForm(newPet, lastId + 1);
      if (options?.refuseTakenName && taken(stored.json)) return { taken: true };
      const bytes = utf8Length(stored.json);
      const refused = beyond(budget, bytes);
      if (refused) return refused;
      lastId = stored.pet.id;
      appendStored(added, stored.pet, stored.json);
      addedBytes += bytes;
      addedNames?.add(nameKey(stored.json));
      Object.freeze(stored.pet);
      return stored;
    },
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
