/** An animal as the reference server keeps it (the interface's Pet). */
export interface ReferencePet {
  id: number;
  name: string;
  /** int64: a bigint past 2^53. */
  categoryId: number | bigint;
  status?: string;
}

const NAMES = ['Biscuit', 'Luna', 'Pepper', 'Milo', 'Nala', 'Oscar', 'Tiger', 'Coco', 'Rocky', 'Daisy'] as const;
const STATUSES = ['available', 'pending', 'sold', undefined] as const;

/**
 * The reference server's default catalogue: 40 animals, ids 1–40, built by a
 * plain loop so every run serves the same ones. Statuses cycle available,
 * pending, sold, none, so each status has 10 animals and 10 have no status.
 */
export function referenceCatalogue(): ReferencePet[] {
  const pets: ReferencePet[] = [];
  for (let id = 1; id <= 40; id++) {
    const status = STATUSES[(id - 1) % STATUSES.length];
    const pet: ReferencePet = { id, name: `${NAMES[(id - 1) % NAMES.length]} ${id}`, categoryId: ((id * 7) % 5) + 1 };
    if (status !== undefined) pet.status = status;
    pets.push(pet);
  }
  return pets;
}

/** A Pet as answered: fields in the interface's order, no status when it has none. */
export function present(pet: ReferencePet): ReferencePet {
  const shown: ReferencePet = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) shown.status = pet.status;
  return shown;
}
