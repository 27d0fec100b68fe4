import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../catalogue/catalogue-page.js';
import type { CatalogueBudget } from '../../catalogue/catalogue-limits.js';
import type { NewPet, Pet } from '../../catalogue/pet.js';
import { createMemoryCatalogue } from './memory-catalogue.js';

const unlimited: CatalogueBudget = { limits: { maxPets: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY }, used: () => ({ pets: 0, bytes: 0 }) };

/** A memory catalogue, read back as objects from the JSON it serves (as a client of the mock reads it). */
function opened(initial: readonly Pet[] = []) {
  const catalogue = createMemoryCatalogue(initial);
  return {
    catalogue,
    list: (query: ListQuery): Pet[] => JSON.parse(catalogue.listJson(query)) as Pet[],
    get: (id: number): Pet | undefined => {
      const json = catalogue.getJson(id);
      return json === undefined ? undefined : (JSON.parse(json) as Pet);
    },
    create: (pet: NewPet): Pet => {
      const created = catalogue.create(pet, unlimited);
      if (!('pet' in created)) throw new Error('an unlimited budget refused an animal');
      return created.pet;
    },
    get size(): number {
      return catalogue.size;
    },
  };
}

const pets: Pet[] = [
  { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
  { id: 2, name: 'Bruno', categoryId: 2, status: 'sold' },
  { id: 3, name: 'Finn', categoryId: 2 },
  { id: 4, name: 'Gus', categoryId: 4, status: 'available' },
  { id: 5, name: 'Oreo', categoryId: 1, status: 'pending' },
  { id: 6, name: 'Luna', categoryId: 5, status: 'available' },
];

const ids = (list: readonly Pet[]): number[] => list.map((pet) => pet.id);

/** What the memory catalogue does of its own; what every store's catalogue does is in test/support/catalogue-cases.ts. */
describe('createMemoryCatalogue', () => {
  describe('list', () => {
    it('lists in ascending id order even when the initial array is not sorted', () => {
      const shuffled = [pets[4], pets[0], pets[5], pets[2], pets[1], pets[3]] as Pet[];
      const store = opened(shuffled);
      expect(ids(store.list({ limit: 100 }))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(ids(store.list({ limit: 100, status: 'available' }))).toEqual([1, 4, 6]);
      expect(ids(store.list({ limit: 2 }))).toEqual([1, 2]);
    });

    it('does not sort or change the array it was given', () => {
      const shuffled = [pets[2], pets[0], pets[1]] as Pet[];
      const copy = structuredClone(shuffled);
      opened(shuffled);
      expect(shuffled).toEqual(copy);
    });

    it('lists nothing for an empty store', () => {
      const store = opened();
      expect(store.list({ limit: 20 })).toEqual([]);
      expect(store.size).toBe(0);
    });
  });

  describe('create', () => {
    it('assigns max(existing id) + 1, then keeps increasing', () => {
      const store = opened([
        { id: 5, name: 'A', categoryId: 1 },
        { id: 42, name: 'B', categoryId: 1 },
        { id: 7, name: 'C', categoryId: 1 },
      ]);
      const first = store.create({ name: 'New', categoryId: 2 });
      const second = store.create({ name: 'Newer', categoryId: 2 });
      const third = store.create({ name: 'Newest', categoryId: 3, status: 'pending' });
      expect([first.id, second.id, third.id]).toEqual([43, 44, 45]);
      expect(store.size).toBe(6);
      expect(store.get(44)).toEqual({ id: 44, name: 'Newer', categoryId: 2 });
      // A created pet is listed after the existing ones, in id order.
      expect(ids(store.list({ limit: 100 }))).toEqual([5, 7, 42, 43, 44, 45]);
      expect(ids(store.list({ limit: 100, status: 'pending' }))).toEqual([45]);
    });

    it('starts at id 1 in an empty store', () => {
      const store = opened();
      expect(store.create({ name: 'First', categoryId: 1 }).id).toBe(1);
      expect(store.create({ name: 'Second', categoryId: 1 }).id).toBe(2);
    });

  });

  describe('initial pets', () => {
    it('drops unknown fields of the initial pets', () => {
      const store = opened([{ id: 1, name: 'Milo', categoryId: 3, extra: true, nested: { a: 1 } } as Pet]);
      expect(Object.keys(store.get(1) as Pet)).toEqual(['id', 'name', 'categoryId']);
      expect(store.list({ limit: 10 })).toEqual([{ id: 1, name: 'Milo', categoryId: 3 }]);
    });

    it('throws on duplicate initial ids, naming the id', () => {
      expect(() =>
        opened([
          { id: 3, name: 'A', categoryId: 1 },
          { id: 1, name: 'B', categoryId: 1 },
          { id: 3, name: 'C', categoryId: 1 },
        ]),
      ).toThrow('duplicate pet id 3');
    });

    it('does not keep a reference to the objects it was given', () => {
      const original: Pet = { id: 1, name: 'Milo', categoryId: 3, status: 'available' };
      const store = opened([original]);
      original.name = 'Changed';
      expect(store.get(1)?.name).toBe('Milo');
    });
  });

  it('hands out the animal it stored frozen: stored animals never change', () => {
    const store = opened(pets);
    const created = store.catalogue.create({ name: 'Rex', categoryId: 1 }, unlimited);
    expect('pet' in created && Object.isFrozen(created.pet)).toBe(true);
  });

  describe('catalogues started from one list (sessions, resets)', () => {
    it('share the start animals and keep their additions apart', () => {
      const first = opened(pets);
      const second = opened(pets);
      const mine = first.create({ name: 'Only in first', categoryId: 1, status: 'sold' });
      expect(first.get(mine.id)?.name).toBe('Only in first');
      expect(second.get(mine.id)).toBeUndefined();
      expect(second.size).toBe(6);
      const theirs = second.create({ name: 'Only in second', categoryId: 1 });
      // Each counts on from the start catalogue's largest id.
      expect([mine.id, theirs.id]).toEqual([7, 7]);
      expect(ids(first.list({ limit: 100, status: 'sold' }))).toEqual([2, 7]);
      expect(ids(second.list({ limit: 100, status: 'sold' }))).toEqual([2]);
    });

  });

  describe('filtered on another field (a listPets filter the document adds)', () => {
    it('pages the start animals, then the additions, that match every filter, in id order', () => {
      const store = opened(pets);
      store.create({ name: 'Kit', categoryId: 2, status: 'sold' });
      store.create({ name: 'Pip', categoryId: 5 });
      const page = (query: ListQuery) => ids(JSON.parse(store.catalogue.listJson(query)) as Pet[]);
      expect(page({ limit: 100, where: [{ field: 'categoryId', value: 2 }] })).toEqual([2, 3, 7]);
      expect(page({ limit: 2, where: [{ field: 'categoryId', value: 2 }] })).toEqual([2, 3]);
      expect(page({ limit: 100, status: 'sold', where: [{ field: 'categoryId', value: 2 }] })).toEqual([2, 7]);
      expect(page({ limit: 100, where: [{ field: 'categoryId', value: 5 }, { field: 'name', value: 'Pip' }] })).toEqual([8]);
      expect(page({ limit: 100, where: [{ field: 'name', value: 'Nobody' }] })).toEqual([]);
      // Its index, made on the first page that asked, follows later additions too.
      store.create({ name: 'Late', categoryId: 2 });
      expect(page({ limit: 100, where: [{ field: 'categoryId', value: 2 }] })).toEqual([2, 3, 7, 9]);
    });
  });

  describe('JSON', () => {
    it('gives the bytes JSON.stringify gives for a page and for one animal, additions included', () => {
      const store = opened([...pets, { id: 9, name: 'Ünïcödé "quoted" \\ 🐕', categoryId: 2, status: 'pending', extra: true } as Pet]);
      store.create({ name: 'Added', categoryId: 3 });
      for (const query of [{ limit: 100 }, { limit: 3 }, { limit: 100, status: 'pending' as const }, { limit: 1, status: 'sold' as const }]) {
        expect(store.catalogue.listJson(query)).toBe(JSON.stringify(store.list(query)));
      }
      expect(store.catalogue.listJson({ limit: 100, status: 'sold' })).toBe('[{"id":2,"name":"Bruno","categoryId":2,"status":"sold"}]');
      expect(store.catalogue.getJson(9)).toBe('{"id":9,"name":"Ünïcödé \\"quoted\\" \\\\ 🐕","categoryId":2,"status":"pending"}');
      expect(store.catalogue.getJson(10)).toBe('{"id":10,"name":"Added","categoryId":3}');
      expect(store.catalogue.getJson(11)).toBeUndefined();
    });
  });
});
