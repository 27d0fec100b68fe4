import type { Faker } from '@faker-js/faker';
import { CATEGORIES } from './categories.js';
import type { FieldFilter } from './catalogue-page.js';
import type { Pet, PetStatus } from './pet.js';

const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];
let loading: Promise<Faker> | undefined;

/** faker, imported the first time `Prefer: dynamic=true` asks for it (it is large, and most runs never do). */
export const loadFaker = (): Promise<Faker> => (loading ??= import('./mock-faker.js').then((m) => m.mockFaker()));

/** A generated Pet: the given fields kept, the rest made up (not seeded: each answer differs). */
export function generatePet(faker: Faker, fields: Partial<Pet> = {}): Pet {
  return {
    id: fields.id ?? faker.number.int({ min: 1, max: 1_000_000 }),
    name: fields.name ?? faker.animal.petName(),
    categoryId: fields.categoryId ?? faker.helpers.arrayElement(CATEGORIES).id,
    status: fields.status ?? faker.helpers.arrayElement(STATUSES),
  };
}

/** `count` generated Pets with increasing ids (a list is ordered by id), all with `status` and each `where` field's value when given. */
export function generatePets(faker: Faker, count: number, status: PetStatus | undefined, where: readonly FieldFilter[] = []): Pet[] {
  const fixed: Partial<Pet> = status === undefined ? {} : { status };
  for (const { field, value } of where) Object.assign(fixed, { [field]: value });
  // Ids are unique: a filter on the id itself gives at most that one animal.
  if (fixed.id !== undefined) return count === 0 ? [] : [generatePet(faker, fixed)];
  let id = faker.number.int({ min: 1, max: 1000 });
  return Array.from({ length: count }, () => {
    id += faker.number.int({ min: 1, max: 50 });
    return generatePet(faker, { ...fixed, id });
  });
}
