import { parseExactJson } from '../../src/shared/exact-json/parse-exact-json.js';
import { stringifyExactJson } from '../../src/shared/exact-json/stringify-exact-json.js';
import type { ListQuery } from '../../src/mock/core/catalogue/catalogue-page.js';
import type { NewPet, Pet } from '../../src/mock/core/catalogue/pet.js';
import type { StateCatalogue } from '../../src/mock/core/store/mock-store.js';

/** A catalogue as objects: what a faulty server's defect changes. */
export interface PetView {
  list(query: ListQuery): Pet[];
  get(id: number): Pet | undefined;
  create(pet: NewPet): Pet;
}

/** Answers at once or not at all: the faulty servers run on the memory store. */
function now<T>(value: T | Promise<T>): T {
  if (value instanceof Promise) throw new Error('a faulty server runs on the memory store, which answers at once');
  return value;
}

/** The memory store's catalogue as objects, int64 values exactly (a bigint past 2^53), as the mock holds them. */
export function petView(catalogue: StateCatalogue): PetView {
  return {
    list: (query) => parseExactJson(now(catalogue.listJson(query))).value as Pet[],
    get: (id) => {
      const json = now(catalogue.getJson(id));
      return json === undefined ? undefined : (parseExactJson(json).value as Pet);
    },
    create: (pet) => {
      const created = now(catalogue.create(pet));
      if ('full' in created) throw new Error(`the faulty server's catalogue is full (${created.full})`);
      if ('taken' in created) throw new Error(`the faulty server's catalogue refused the name ${JSON.stringify(pet.name)}`);
      return created.pet;
    },
  };
}

/** A catalogue that answers as `view` does, counting as `inner`. */
export function viewedCatalogue(view: PetView, inner: StateCatalogue): StateCatalogue {
  return {
    listJson: (query) => stringifyExactJson(view.list(query)),
    getJson: (id) => {
      const pet = view.get(id);
      return pet === undefined ? undefined : stringifyExactJson(pet);
    },
    create: (newPet) => {
      const pet = view.create(newPet);
      return { pet, json: stringifyExactJson(pet) };
    },
    count: () => inner.count(),
  };
}

/** A view that answers like `view` except where `changes` says otherwise. */
export function viewWith(view: PetView, changes: Partial<PetView>): PetView {
  return { ...view, ...changes };
}
