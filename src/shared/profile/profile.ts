import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/**
 * A profile: what a server chose where the interface is silent, one
 * choice per point the contract harness observes (its silent log,
 * src/contract-tests/silent-log.ts, names the same points). The harness
 * writes one from a run (`--write-profile`); the mock answers by one
 * (`--profile`). Only choices the interface leaves open can be written:
 * each answer's status is one the contract allows there, so a profile
 * can never make the mock break the contract.
 */
export const PROFILE_VERSION = 1;

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

export interface ProfileChoices {
  /** Every operation: no `Authorization` header (401). */
  'missing-key': ProfiledError;
  /** Every operation: an `Authorization` header without an accepted key (401). */
  'wrong-key': ProfiledError;
  /** Every operation: the `WWW-Authenticate` challenge of a 401 (the Bearer scheme, then any auth-params). */
  challenge: string;
  /** listPets: the order of results, by id. */
  order: 'ascending' | 'descending';
  /** createPet: the status of an animal created without one (`none`: left out). */
  'default-status': 'none' | 'available' | 'pending' | 'sold';
  /** createPet: the longest name accepted, in code points (at least 1000), and the answer past it. */
  'name-length': 'unlimited' | { max: number; refused: ProfiledError };
  /** createPet: the largest body accepted, in bytes (8 KiB to 1 MiB), and the answer past it. */
  'body-size': { max: number; refused: ProfiledError };
  /** createPet: a name that is the empty string. */
  'empty-name': AcceptedOr;
  /** createPet: a name with a control character (C0, DEL, C1). */
  'control-characters': AcceptedOr;
  /** createPet: a name an animal of the session already has. */
  'taken-name': AcceptedOr;
  /** createPet: a body sent chunked, without Content-Length (refused: 411, RFC 9112 §6.3). */
  'chunked-body': AcceptedOr;
  /** createPet: whether `Location` is sent with 201. */
  location: 'sent' | 'not-sent';
  /** createPet: an empty body. */
  'missing-body': ProfiledError;
  /** createPet: a body that is not JSON. */
  'malformed-json': ProfiledError;
  /** createPet: JSON that is not an object. */
  'body-not-object': ProfiledError;
  /** createPet: a NewPet not sent as application/json. */
  'media-type': ProfiledError;
  /** createPet: a NewPet without a field it requires (and nothing else wrong). */
  'missing-field': FieldErrors<'name' | 'categoryId'>;
  /** createPet: a NewPet with a field of the wrong type or out of its range. */
  'invalid-value': FieldErrors & { 'past-int64'?: ProfiledError };
  /** getPet: an id no animal has. */
  'unknown-id': ProfiledError;
  /** getPet: a `petId` that is not an int64; `reads`: the other ways of writing an id read as that id (left out: leading zeros only). */
  'pet-id': ProfiledError & { reads?: PetIdForm[] };
  /** Every operation: a query parameter the document does not name. */
  'unknown-query-parameter': 'ignored' | ProfiledError;
  /** listPets: a `limit` the document refuses (an Error, or ignored: the default page); past the maximum, refused the same way or clamped to it. */
  limit: { refused: ProfiledError | 'ignored'; 'above-maximum': 'refused' | 'clamped' };
  /** listPets: a `status` the document refuses: an Error, or ignored (every status). */
  status: ProfiledError | 'ignored';
}

export type ProfilePoint = keyof ProfileChoices;

/** A profile as written in its file: a point left out keeps the mock's own choice. */
export interface ProfileFile {
  version: typeof PROFILE_VERSION;
  /** Shown by the mock's health endpoint and console. */
  name: string;
  choices: Partial<ProfileChoices>;
  /** Written by the harness: for a point left out, why (not reached, answered in more than one way). */
  notes?: Partial<Record<ProfilePoint, string>>;
}

/** A profile as the mock answers by it: every choice, the mock's own where the file left one out. */
export interface Profile extends ProfileFile {
  choices: ProfileChoices;
}

/** The profiles shipped with the package, their JSON Schema among them. */
export const profilesDir = (): string => join(packageRoot(), 'profiles');
export const profileSchemaPath = (): string => join(profilesDir(), 'profile.schema.json');
/** The mock's own choices, as a profile: what it serves without `--profile`. */
export const defaultProfilePath = (): string => join(profilesDir(), 'default.yaml');
