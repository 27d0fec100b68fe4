import type { ExactInteger } from '../../../shared/exact-json/int64.js';

/** The interface's PetStatus values, as the document lists them. */
export type PetStatus = 'available' | 'pending' | 'sold';

/** A Pet as the service returns it. `status` is optional: the interface shows no default. */
export interface Pet {
  id: number;
  name: string;
  /** int64: a bigint past 2^53 (see shared/exact-json/int64.ts). */
  categoryId: ExactInteger;
  status?: PetStatus;
}

export type NewPet = Omit<Pet, 'id'>;

/** The fields a stored animal keeps (the document's, in its order): what a listPets filter may name. */
export const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const satisfies ReadonlyArray<keyof Pet>;
export type PetField = (typeof PET_FIELDS)[number];
