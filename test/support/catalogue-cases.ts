import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/mock/core/catalogue/catalogue-page.js';
import type { NewPet, Pet } from '../../src/mock/core/catalogue/pet.js';
import type { StateCatalogue } from '../../src/mock/core/store/mock-store.js';
import { opened } from './redis-stores.js';
import type { OpenStore } from './taken-name-cases.js';

/**
 * What every MockStore's catalogue does, one case list run against each
 * store (memory, and a real Redis), as Hono runs one router suite against
 * every router: pages in id order (or the profile's descending one), by
 * status and by another field, the start animals first and then the
 * additions; ids; what a create keeps; the JSON served. The start
 * catalogue is the store tests' (test/support/redis-stores.ts): Milo
 * (id 1, category 3, available) and Bruno (id 2, category 2, no status).
 */
export function describeCatalogue(kind: string, open: OpenStore): void {
  let sessions = 0;
  const catalogueOf = async (): Promise<StateCatalogue> => (await (await opened(await open(), `catalogue-${++sessions}`)).control.active()).catalogue;
  const list = async (catalogue: StateCatalogue, query: ListQuery): Promise<Pet[]> => JSON.parse(await catalogue.listJson(query)) as Pet[];
  const ids = (pets: readonly Pet[]): number[] => pets.map((pet) => pet.id);
  const create = async (catalogue: StateCatalogue, pet: NewPet): Promise<Pet> => {
    const created = await catalogue.create(pet);
    if (!('pet' in created)) throw new Error(`the store refused ${JSON.stringify(pet)}: ${JSON.stringify(created)}`);
    return created.pet;
  };

  describe(`a ${kind} store's catalogue`, () => {
    it('pages the start animals in id order, the lowest ids first within the limit, and by status (an animal without one never matches)', async () => {
      const catalogue = await catalogueOf();
      expect(ids(await list(catalogue, { limit: 100 }))).toEqual([1, 2]);
      expect(ids(await list(catalogue, { limit: 1 }))).toEqual([1]);
      expect(ids(await list(catalogue, { limit: 100, status: 'available' }))).toEqual([1]);
      expect(await list(catalogue, { limit: 100, status: 'sold' })).toEqual([]);
      expect(await catalogue.count()).toBe(2);
    });

    it('gives an animal by id, and nothing for an id no animal has', async () => {
      const catalogue = await catalogueOf();
      expect(JSON.parse((await catalogue.getJson(2)) ?? 'null')).toEqual({ id: 2, name: 'Bruno', categoryId: 2 });
      expect(await catalogue.getJson(3)).toBeUndefined();
      expect(await catalogue.getJson(0)).toBeUndefined();
    });

    it('gives a created animal the next id, ignoring one sent, keeping only the documented fields and no status it was not given', async () => {
      const catalogue = await catalogueOf();
      expect(await create(catalogue, { name: 'Nala', categoryId: 1 })).toEqual({ id: 3, name: 'Nala', categoryId: 1 });
      const odd = { id: 99, name: 'Kit', categoryId: 4, status: 'pending', colour: 'grey' } as unknown as NewPet;
      expect(await create(catalogue, odd)).toEqual({ id: 4, name: 'Kit', categoryId: 4, status: 'pending' });
      expect(JSON.parse((await catalogue.getJson(4)) ?? 'null')).toEqual({ id: 4, name: 'Kit', categoryId: 4, status: 'pending' });
      expect(await catalogue.count()).toBe(4);
    });

    it('pages on past the start animals into the additions, with and without a status', async () => {
      const catalogue = await catalogueOf();
      for (const [name, status] of [['A', 'available'], ['B', undefined], ['C', 'available']] as const) await create(catalogue, { name, categoryId: 2, ...(status && { status }) });
      expect(ids(await list(catalogue, { limit: 3 }))).toEqual([1, 2, 3]);
      expect(ids(await list(catalogue, { limit: 100 }))).toEqual([1, 2, 3, 4, 5]);
      expect(ids(await list(catalogue, { limit: 2, status: 'available' }))).toEqual([1, 3]);
      expect(ids(await list(catalogue, { limit: 100, status: 'available' }))).toEqual([1, 3, 5]);
    });

    it('pages by another field (a listPets filter the document adds): the start animals, then the additions that match every filter', async () => {
      const catalogue = await catalogueOf();
      await create(catalogue, { name: 'A', categoryId: 2, status: 'available' });
      await create(catalogue, { name: 'B', categoryId: 3 });
      await create(catalogue, { name: 'C', categoryId: 2 });
      expect(ids(await list(catalogue, { limit: 100, where: [{ field: 'categoryId', value: 2 }] }))).toEqual([2, 3, 5]);
      expect(ids(await list(catalogue, { limit: 2, where: [{ field: 'categoryId', value: 2 }] }))).toEqual([2, 3]);
      expect(ids(await list(catalogue, { limit: 100, status: 'available', where: [{ field: 'categoryId', value: 2 }] }))).toEqual([3]);
      expect(ids(await list(catalogue, { limit: 100, where: [{ field: 'name', value: 'B' }] }))).toEqual([4]);
    });

    it('pages by id descending when asked (a profile\'s order): the additions first', async () => {
      const catalogue = await catalogueOf();
      await create(catalogue, { name: 'A', categoryId: 2 });
      expect(ids(await list(catalogue, { limit: 100, order: 'descending' }))).toEqual([3, 2, 1]);
      expect(ids(await list(catalogue, { limit: 2, order: 'descending' }))).toEqual([3, 2]);
    });

    it('serves the bytes JSON.stringify gives, for a page and for one animal, additions included', async () => {
      const catalogue = await catalogueOf();
      await create(catalogue, { name: 'Ünïcode "quoted" \\ name', categoryId: 2, status: 'sold' });
      const page = await catalogue.listJson({ limit: 100 });
      expect(page).toBe(JSON.stringify(JSON.parse(page)));
      const one = (await catalogue.getJson(3)) ?? '';
      expect(one).toBe(JSON.stringify({ id: 3, name: 'Ünïcode "quoted" \\ name', categoryId: 2, status: 'sold' }));
    });
  });
}
