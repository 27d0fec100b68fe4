import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/document/load-contract.js';
import type { CatalogueLimits } from '../../src/mock/core/catalogue/catalogue-limits.js';
import type { NewPet, Pet } from '../../src/mock/core/catalogue/pet.js';
import { scenariosInFolder } from '../../src/mock/core/scenarios/scenarios-in-folder.js';
import { createScenarioLibrary } from '../../src/mock/core/scenarios/scenario-library.js';
import type { MockStore, ScenarioState } from '../../src/mock/core/store/mock-store.js';
import { openStore } from '../../src/mock/core/store/open-store.js';
import { opened, STORE_TEST_START, storeTestScenarios } from './redis-stores.js';

/**
 * What every MockStore does with a create asked to refuse a name another
 * animal of the same catalogue has, one case list run against each store
 * (memory, and a real Redis), as Hono runs one router suite against every
 * router. `open` gives a fresh store on the scenarios of
 * storeTestScenarios() (`plain`, `machine`), whose start catalogue is Milo
 * (id 1) and Bruno (id 2). What one store does of its own (two processes on
 * one Redis, the keys it keeps) is tested beside that store.
 */
export type OpenStore = (options?: { catalogueLimits?: CatalogueLimits }) => Promise<MockStore>;

/** For a test file: fresh stores on the store tests' scenarios, memory or (given `url`) Redis under a prefix of their own, closed after the file. */
export function storeOpener(url?: string): OpenStore {
  const contract = loadContract();
  const folder = storeTestScenarios();
  const stores: MockStore[] = [];
  afterAll(() => Promise.all(stores.map((store) => store.close())));
  return async ({ catalogueLimits } = {}) => {
    const library = createScenarioLibrary({ contract, source: scenariosInFolder(contract, folder.dir), catalogueLimits });
    const store = await openStore({ library, start: STORE_TEST_START, ...(url && { url, prefix: `test-${randomUUID()}` }) });
    stores.push(store);
    return store;
  };
}

const refuse = { refuseTakenName: true };
const pet = (name: string): NewPet => ({ name, categoryId: 1 });
const active = async (store: MockStore, id: string): Promise<ScenarioState> => (await opened(store, id)).control.active();
const names = async (state: ScenarioState): Promise<string[]> => (JSON.parse(await state.catalogue.listJson({ limit: 1000 })) as Pet[]).map((one) => one.name);

export function describeTakenNames(kind: string, open: OpenStore): void {
  let sessions = 0;
  const nextId = (): string => `taken-${++sessions}`;

  describe(`a ${kind} store asked to refuse a taken name`, () => {
    it("refuses a start animal's name and an added animal's (one added without the option too), stores nothing then, and takes no id", async () => {
      const store = await open();
      const id = nextId();
      expect(await (await active(store, id)).catalogue.create(pet('Milo'), refuse)).toEqual({ taken: true });
      expect(await (await active(store, id)).catalogue.create(pet('Nala'))).toMatchObject({ pet: { id: 3 } });
      expect(await (await active(store, id)).catalogue.create(pet('Nala'), refuse)).toEqual({ taken: true });
      const state = await active(store, id);
      expect(await state.catalogue.count()).toBe(3);
      expect(await names(state)).toEqual(['Milo', 'Bruno', 'Nala']);
      expect(await state.catalogue.create(pet('Kit'), refuse)).toMatchObject({ pet: { id: 4, name: 'Kit' } });
    });

    it('without the option stores a taken name as any other', async () => {
      const state = await active(await open(), nextId());
      for (const [n, name] of ['Milo', 'Nala', 'Nala'].entries()) expect(await state.catalogue.create(pet(name))).toMatchObject({ pet: { id: 3 + n, name } });
      expect(await state.catalogue.create(pet('Milo'), { refuseTakenName: false })).toMatchObject({ pet: { id: 6 } });
      expect(await names(state)).toEqual(['Milo', 'Bruno', 'Milo', 'Nala', 'Nala', 'Milo']);
    });

    it('compares names exactly: case, spaces, combining marks and lone surrogates make another name', async () => {
      const { catalogue } = await active(await open(), nextId());
      expect(await catalogue.create(pet('\ud800'), refuse)).toHaveProperty('pet');
      for (const name of ['milo', 'Milo ', ' Milo', 'MILO', '\udc00', '\ufffd', 'Mil\u00f6', 'Milo\u0308']) expect(await catalogue.create(pet(name), refuse), name).toHaveProperty('pet');
      expect(await catalogue.create(pet('\ud800'), refuse)).toEqual({ taken: true });
    });

    it('reads a name whatever it holds, and whatever the category (one past 2^53 included)', async () => {
      const { catalogue } = await active(await open(), nextId());
      const odd = ['Milo","categoryId":3', 'x,"categoryId":', '\\",\\"name\\":', 'Big'];
      for (const name of odd) expect(await catalogue.create(pet(name), refuse), name).toHaveProperty('pet');
      for (const name of odd) expect(await catalogue.create(pet(name), refuse), name).toEqual({ taken: true });
      expect(await catalogue.create({ name: 'Big', categoryId: 2n ** 60n }, refuse)).toEqual({ taken: true });
      expect(await catalogue.create({ name: 'Huge', categoryId: 2n ** 60n }, refuse)).toHaveProperty('pet');
      expect(await catalogue.create(pet('Huge'), refuse)).toEqual({ taken: true });
    });

    it('refuses a taken name before judging the limits; a create the limits refuse keeps no name', async () => {
      const store = await open({ catalogueLimits: { maxPets: 1, maxBytes: 10_000 } });
      const id = nextId();
      const { catalogue } = await active(store, id);
      expect(await catalogue.create(pet('Nala'), refuse)).toHaveProperty('pet');
      expect(await catalogue.create(pet('Nala'), refuse)).toEqual({ taken: true });
      expect(await catalogue.create(pet('Kit'), refuse)).toEqual({ full: 'pets' });
      await (await opened(store, id)).control.reset();
      expect(await (await active(store, id)).catalogue.create(pet('Kit'), refuse)).toHaveProperty('pet');
    });

    it("a reset frees the additions' names; the start animals' stay taken", async () => {
      const store = await open();
      const id = nextId();
      await (await active(store, id)).catalogue.create(pet('Nala'));
      await (await opened(store, id)).control.reset();
      expect(await (await active(store, id)).catalogue.create(pet('Milo'), refuse)).toEqual({ taken: true });
      expect(await (await active(store, id)).catalogue.create(pet('Nala'), refuse)).toMatchObject({ pet: { id: 3, name: 'Nala' } });
    });

    it("each state and each session has its own names; a scenario's reset frees its own, an activation starts from its start's names alone", async () => {
      const store = await open();
      const id = nextId();
      const other = await (await opened(store, id)).control.stateOf('plain');
      if (!other.ok) throw new Error(other.error.message);
      expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');
      expect(await (await active(store, id)).catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');
      expect(await (await active(store, nextId())).catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');
      expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toEqual({ taken: true });
      await (await opened(store, id)).control.resetScenario('plain');
      expect(await other.value.catalogue.create(pet('Quokka'), refuse)).toHaveProperty('pet');

      await (await active(store, id)).catalogue.create(pet('Kit'));
      expect((await (await opened(store, id)).control.activate('machine')).ok).toBe(true);
      const machine = await active(store, id);
      const [startName] = await names(machine);
      expect(await machine.catalogue.create(pet(startName as string), refuse)).toEqual({ taken: true });
      // Kit was added under the start state, which its fixture (fixtures/pets.json) does not name.
      expect(await machine.catalogue.create(pet('Kit'), refuse)).toHaveProperty('pet');
    });

    it('a refused activation leaves the names as they were', async () => {
      const store = await open();
      const id = nextId();
      await (await active(store, id)).catalogue.create(pet('Nala'));
      expect((await (await opened(store, id)).control.activate('no-such-scenario')).ok).toBe(false);
      expect(await (await active(store, id)).catalogue.create(pet('Nala'), refuse)).toEqual({ taken: true });
    });
  });
}
