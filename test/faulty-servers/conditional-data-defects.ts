import { viewWith, type PetView } from './pet-view.js';
import type { NewPet } from '../../src/mock/core/catalogue/pet.js';
import type { Defect } from './defect.js';
import { afterMock, mapJson, mapPets } from './http.js';

/**
 * Stores that change some names or categoryIds on the way in, and views
 * (getPet, the listing) that change them on the way out. Each change leaves
 * the ASCII names and small categoryIds of the fixtures and of the fixed
 * rules alone: only the boundary values the generated round trip sends
 * (non-ASCII, whitespace, control characters, long names, ids past 32 bits,
 * 0, negatives) are changed.
 */

const AS_SENT = 'Endpoints > Add an animal: 201, Pet: the animal added, as sent (NewPet name: string; categoryId: integer, int64), with its assigned id.';
const AS_STORED = 'Endpoints > Get an animal: 200, Pet, the animal with that id, as it was added.';
const AS_LISTED = 'Endpoints > List animals: 200, Pets: the animals of the catalogue, as they were added.';
const ROUND_TRIP = ['create-generated-round-trip'];

/** A catalogue that changes each NewPet before it is stored, so the 201, getPet and the listing all show the change. */
const storedAs =
  (change: (pet: NewPet) => NewPet) =>
  (pets: PetView): PetView =>
    viewWith(pets, { create: (pet) => pets.create(change(pet)) });
const nameStoredAs = (change: (name: string) => string) => storedAs((pet) => ({ ...pet, name: change(pet.name) }));
const categoryStoredAs = (change: (categoryId: number) => number) => storedAs((pet) => ({ ...pet, categoryId: change(Number(pet.categoryId)) }));

/** A response view that changes one field of every Pet it answers. */
const shown = (operation: 'getPet' | 'listPets', change: (pet: Record<string, unknown>) => unknown) =>
  afterMock((op, response) => op === operation && response.status === 200, mapJson(mapPets(change)));

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Characters outside ISO-8859-1 as a Latin-1 column stores them. */
const latin1 = (name: string) => name.replace(/[^\u0000-\u00ff]/gu, '?');

export const conditionalDataDefects: Defect[] = [
  {
    name: 'names normalised to NFC',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.normalize('NFC')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'diacritics stripped from names',
    breaks: AS_SENT,
    // NFD, then the combining marks dropped: "Zoë" becomes "Zoe".
    catalogue: nameStoredAs((name) => name.normalize('NFD').replace(/\p{Mn}/gu, '')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'non-Latin-1 characters of names stored as "?"',
    breaks: AS_SENT,
    catalogue: nameStoredAs(latin1),
    // The concurrent creates' names end in "✓" (U+2713).
    caughtBy: [...ROUND_TRIP, 'create-concurrent-unique-ids'],
  },
  {
    name: 'astral characters (emoji) of names stored as U+FFFD',
    breaks: AS_SENT,
    // A three-byte UTF-8 column (MySQL utf8mb3) has no room for 4-byte characters.
    catalogue: nameStoredAs((name) => name.replace(/[\u{10000}-\u{10ffff}]/gu, '\ufffd')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names trimmed of surrounding whitespace',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.trim()),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'control characters stripped from names',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.replace(/[\u0000-\u001f\u007f]/g, '')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names cut at the first NUL (C string)',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.split('\u0000', 1)[0] as string),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names cut at 255 characters, answered 201',
    breaks: `${AS_SENT} (Limits: limits on name length are not shown; a server with one must refuse, not cut.)`,
    catalogue: nameStoredAs((name) => name.slice(0, 255)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'names HTML-escaped when stored',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.replace(/[&<>"']/g, (c) => HTML[c] as string)),
    caughtBy: ROUND_TRIP,
  },
  {
    name: "single quotes doubled in names (SQL escaping stored)",
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.replaceAll("'", "''")),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'zero-width characters and BOM stripped from names',
    breaks: AS_SENT,
    catalogue: nameStoredAs((name) => name.replace(/[\u200b-\u200d\u2060\ufeff]/g, '')),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'categoryId above 2^31 wrapped to int32 (| 0)',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((categoryId) => categoryId | 0),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'categoryId stored as a 32-bit float',
    breaks: AS_SENT,
    // Exact up to 2^24: the fixed rules' small ids pass, 2^31 − 1 comes back as 2^31.
    catalogue: categoryStoredAs(Math.fround),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'categoryId 0 replaced by 1 (0 taken for "not given")',
    breaks: AS_SENT,
    catalogue: categoryStoredAs((categoryId) => categoryId || 1),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'negative categoryId stored as its absolute value',
    breaks: AS_SENT,
    catalogue: categoryStoredAs(Math.abs),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'getPet shows non-Latin-1 characters of names as "?" (201 and listing right)',
    breaks: AS_STORED,
    wrap: shown('getPet', (pet) => ({ ...pet, name: latin1(String(pet.name)) })),
    caughtBy: [...ROUND_TRIP, 'create-concurrent-unique-ids'],
  },
  {
    name: 'getPet shows categoryId wrapped to int32 (201 and listing right)',
    breaks: AS_STORED,
    wrap: shown('getPet', (pet) => ({ ...pet, categoryId: Number(pet.categoryId) | 0 })),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'the listing shows non-ASCII names as mojibake (UTF-8 read as Latin-1)',
    breaks: AS_LISTED,
    wrap: shown('listPets', (pet) => ({ ...pet, name: Buffer.from(String(pet.name), 'utf8').toString('latin1') })),
    caughtBy: ROUND_TRIP,
  },
  {
    name: 'the listing shows categoryId wrapped to int32 (201 and getPet right)',
    breaks: AS_LISTED,
    wrap: shown('listPets', (pet) => ({ ...pet, categoryId: Number(pet.categoryId) | 0 })),
    caughtBy: ROUND_TRIP,
  },
];
