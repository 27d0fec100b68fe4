/** An Error answer a profile chooses: its status (among those the point allows) and its `code`. */
export interface ProfiledError {
  status: number;
  code: string;
}

/** The NewPet fields an Error may be chosen for, one by one. */
export type NewPetField = 'name' | 'categoryId' | 'status';

/** One Error for a condition of every field, or one per field where `fields` names it. */
export interface FieldErrors<F extends NewPetField = NewPetField> extends ProfiledError {
  fields?: Partial<Record<F, ProfiledError>>;
}

/** The ways of writing an id, other than plain decimal digits, that getPet may read as that id (`/pets/007` as 7). */
export const PET_ID_FORMS = ['leading-zeros', 'plus-sign', 'leading-space', 'decimal-zero', 'exponent', 'hexadecimal'] as const;
export type PetIdForm = (typeof PET_ID_FORMS)[number];

/** A refusal the mock may make where the interface is silent, or none. */
export type AcceptedOr = 'accepted' | ProfiledError;

/** An input the mock may refuse, or ignore (answer as if it were not there). */
export type IgnoredOr = 'ignored' | ProfiledError;

/** A filter value the mock may refuse, ignore, or read as a filter nothing matches (an empty page). */
export type FilterChoice = IgnoredOr | 'empty';

/**
 * How a deprecated operation signals it: on which of its answers
 * `Deprecation` and `Sunset` go (every one, 2xx only, or none), and whether
 * `Link` names the replacement with them.
 */
export interface DeprecationChoice {
  answers: 'every' | 'success' | 'none';
  link: 'sent' | 'not-sent';
}
