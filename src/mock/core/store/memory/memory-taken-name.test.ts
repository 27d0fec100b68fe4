import { describe, expect, it } from 'vitest';
import type { CatalogueBudget } from '../../catalogue/catalogue-limits.js';
import type { NewPet, Pet } from '../../catalogue/pet.js';
import { errorBody } from '../../errors.js';
import type { Scenario } from '../../scenarios/load-scenario.js';
import type { ScenarioLibrary } from '../../scenarios/scenario-library.js';
import type { ScenarioState } from '../mock-store.js';
import { createMemoryCatalogue } from './memory-catalogue.js';
import { createMemoryControl } from './memory-control.js';

/**
 * A create that refuses a name another animal of the same catalogue has:
 * the start animals' and the additions', checked and stored in one step,
 * and forgotten with the additions on every reset.
 */
const budget = (maxPets: number): CatalogueBudget => ({ limits: { maxPets, maxBytes: Number.POSITIVE_INFINITY }, used: () => ({ pets: 0, bytes: 0 }) });
const unlimited = budget(Number.POSITIVE_INFINITY);
const refuse = { refuseTakenName: true };
const pet = (name: string): NewPet => ({ name, categoryId: 1 });
const start: Pet[] = [
  { id: 1, name: 'Milo', categoryId: 3, status: 'available' },
  { id: 2, name: 'Bruno', categoryId: 2 },
];

describe('a memory catalogue asked to refuse a taken name', () => {
  it("refuses a start animal's name and stores nothing: no animal, no id used", () => {
    const catalogue = createMemoryCatalogue(start);
    expect(catalogue.create(pet('Milo'), unlimited, refuse)).toEqual({ taken: true });
    expect(catalogue.size).toBe(2);
    expect(catalogue.added).toEqual({ pets: 0, bytes: 0 });
    expect(catalogue.create(pet('Nala'), unlimited, refuse)).toMatchObject({ pet: { id: 3, name: 'Nala' } });
  });

  it("refuses an added animal's name, one added without the option included", () => {
    const catalogue = createMemoryCatalogue(start);
    catalogue.create(pet('Nala'), unlimited);
    catalogue.create(pet('Kit'), unlimited, refuse);
    catalogue.create(pet('Rex'), unlimited);
    for (const name of ['Nala', 'Kit', 'Rex']) expect(catalogue.create(pet(name), unlimited, refuse), name).toEqual({ taken: true });
    expect(catalogue.size).toBe(5);
    expect(catalogue.getJson(6)).toBeUndefined();
  });

  it('without the option stores a taken name as any other, as before', () => {
    const catalogue = createMemoryCatalogue(start);
    expect(catalogue.create(pet('Milo'), unlimited)).toMatchObject({ pet: { id: 3, name: 'Milo' } });
    expect(catalogue.create(pet('Milo'), unlimited, { refuseTakenName: false })).toMatchObject({ pet: { id: 4, name: 'Milo' } });
    expect(catalogue.create(pet('Milo'), unlimited, {})).toMatchObject({ pet: { id: 5, name: 'Milo' } });
    expect(catalogue.size).toBe(5);
  });

  it('compares names exactly: case, spaces and other code points make another name', () => {
    const catalogue = createMemoryCatalogue(start);
    catalogue.create(pet('\ud800'), unlimited);
    for (const name of ['milo', 'Milo ', ' Milo', 'MILO', '\udc00', 'Mil\u00f6', 'Milo\u0308']) {
      expect(catalogue.create(pet(name), unlimited, refuse), name).toHaveProperty('pet');
    }
    expect(catalogue.create(pet('\ud800'), unlimited, refuse)).toEqual({ taken: true });
  });

  it('reads a name out of its stored JSON whatever it holds, and whatever the category', () => {
    const catalogue = createMemoryCatalogue(start);
    const odd = ['Milo","categoryId":3', 'x,"categoryId":', '\\",\\"name\\":', 'Big'];
    for (const name of odd) expect(catalogue.create(pet(name), unlimited, refuse), name).toHaveProperty('pet');
    for (const name of odd) expect(catalogue.create(pet(name), unlimited, refuse), name).toEqual({ taken: true });
    // A category past 2^53 takes another JSON writer (lossless-json): the name is the same name.
    expect(catalogue.create({ name: 'Big', categoryId: 2n ** 60n }, unlimited, refuse)).toEqual({ taken: true });
    expect(catalogue.create({ name: 'Huge', categoryId: 2n ** 60n }, unlimited, refuse)).toHaveProperty('pet');
    expect(catalogue.create(pet('Huge'), unlimited, refuse)).toEqual({ taken: true });
  });

  it('refuses a taken name before judging the limits; a create the limits refuse keeps no name', () => {
    const full = createMemoryCatalogue(start);
    expect(full.create(pet('Milo'), budget(0), refuse)).toEqual({ taken: true });
    expect(full.create(pet('Nala'), budget(0), refuse)).toEqual({ full: 'pets' });
    expect(full.create(pet('Nala'), unlimited, refuse)).toMatchObject({ pet: { id: 3, name: 'Nala' } });
  });

  it('catalogues started from one list share its names, not their additions', () => {
    const first = createMemoryCatalogue(start);
    const second = createMemoryCatalogue(start);
    first.create(pet('Only in first'), unlimited);
    expect(second.create(pet('Only in first'), unlimited, refuse)).toHaveProperty('pet');
    expect(second.create(pet('Bruno'), unlimited, refuse)).toEqual({ taken: true });
  });
});

const scenario = (name: string): Scenario => ({ name, description: name, file: `${name}.yaml`, catalogue: { fixture: 'x' }, initialState: 'Started', stubs: [] });
const scenarioPets: Pet[] = [{ id: 1, name: 'Rex', categoryId: 1 }];
const library: ScenarioLibrary = {
  dir: '/nowhere',
  catalogueLimits: { maxPets: 100, maxBytes: 100_000 },
  load: async (name) => ({ ok: true, value: { scenario: scenario(name), path: `/nowhere/${name}.yaml`, pets: scenarioPets } }),
  get: (name) => library.load(name),
};
const createIn = (state: ScenarioState, name: string) => state.catalogue.create(pet(name), refuse);
async function stateOf(control: ReturnType<typeof createMemoryControl>, name: string): Promise<ScenarioState> {
  const found = await control.stateOf(name);
  if (!found.ok) throw new Error(found.error.message);
  return found.value;
}

describe("a session's states asked to refuse a taken name", () => {
  it("a reset frees the additions' names; the start animals' stay taken", () => {
    const control = createMemoryControl({ library, start: { pets: start } });
    expect(createIn(control.active(), 'Nala')).toHaveProperty('pet');
    expect(createIn(control.active(), 'Nala')).toEqual({ taken: true });
    control.reset();
    expect(createIn(control.active(), 'Milo')).toEqual({ taken: true });
    expect(createIn(control.active(), 'Nala')).toMatchObject({ pet: { id: 3, name: 'Nala' } });
  });

  it("one scenario's reset frees its names; an activation starts from the new start's names alone", async () => {
    const control = createMemoryControl({ library, start: { pets: start } });
    const other = await stateOf(control, 'other');
    expect(createIn(other, 'Nala')).toHaveProperty('pet');
    expect(createIn(other, 'Nala')).toEqual({ taken: true });
    control.resetScenario('other');
    expect(createIn(other, 'Nala')).toHaveProperty('pet');

    createIn(control.active(), 'Kit');
    expect((await control.activate('next')).ok).toBe(true);
    for (const free of ['Kit', 'Milo']) expect(createIn(control.active(), free), free).toHaveProperty('pet');
    expect(createIn(control.active(), 'Rex')).toEqual({ taken: true });
  });

  it("each state has its own names: one added in a Prefer: scenario= state is free in the active one's", async () => {
    const control = createMemoryControl({ library, start: { pets: start } });
    expect(createIn(await stateOf(control, 'other'), 'Nala')).toHaveProperty('pet');
    expect(createIn(control.active(), 'Nala')).toHaveProperty('pet');
    expect(createIn(await stateOf(control, 'other'), 'Rex')).toEqual({ taken: true });
  });

  it('a refused activation leaves the names as they were', async () => {
    const refusing: ScenarioLibrary = { ...library, load: async (name) => ({ ok: false, error: errorBody('unknown_scenario', `unknown scenario "${name}"`) }) };
    const control = createMemoryControl({ library: refusing, start: { pets: start } });
    createIn(control.active(), 'Nala');
    expect((await control.activate('missing')).ok).toBe(false);
    expect(createIn(control.active(), 'Nala')).toEqual({ taken: true });
  });
});
