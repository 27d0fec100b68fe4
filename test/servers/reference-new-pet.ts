import { parse, parseNumberAndBigInt } from 'lossless-json';
import type { ReferencePet } from './reference-catalogue.js';

/** What the body of a createPet asks for, or why it is refused (always 400). */
export type NewPetReading = { ok: true; pet: Omit<ReferencePet, 'id'> } | { ok: false; code: string; message: string };

const STATUSES: ReadonlySet<unknown> = new Set(['available', 'pending', 'sold']);
const NEW_PET_MEMBERS: ReadonlySet<string> = new Set(['name', 'categoryId', 'status']);
const MAX_NAME_CHARACTERS = 1000;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a createPet body (already known to be `application/json`) as a
 * NewPet: well-formed UTF-8 (no byte-order mark), one JSON object, `name` a
 * string of 1 to 1000 characters (code points), `categoryId` a JSON integer
 * (1.0 is one, 1.5 is not) within int64, kept exactly, `status` absent or exactly one
 * of the three values. Other fields, `id` among them, are ignored. Without a
 * status the animal is `available`. The name is kept exactly as sent.
 * `controlCharacters: 'refused'`: a name with a control character (Unicode
 * Cc: C0, DEL, C1) is refused, checked after `empty_name`.
 * `extraMembers: 'refused'`: a member other than the three is refused, once
 * the three are read. `duplicateMembers: 'refused'`: a member named twice
 * with two values refuses the body (well-formed JSON otherwise), before
 * any field is read; else the last is read.
 */
export function readNewPet(
  body: Buffer,
  {
    controlCharacters = 'kept',
    extraMembers = 'ignored',
    duplicateMembers = 'last',
  }: { controlCharacters?: 'kept' | 'refused'; extraMembers?: 'ignored' | 'refused'; duplicateMembers?: 'last' | 'refused' } = {},
): NewPetReading {
  if (body.length === 0) return refuse('empty_body', 'The request body is empty; send a NewPet JSON object.');
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    return refuse('bad_encoding', 'The request body is not well-formed UTF-8.');
  }
  let value: unknown;
  let twice: string | undefined;
  try {
    // Integers exactly (JSON.parse rounds past 2^53): as bigints, a safe one then as a number.
    value = parse(text, null, { parseNumber: parseNumberAndBigInt, onDuplicateKey: ({ key, newValue }) => ((twice ??= key), newValue) });
  } catch {
    return refuse('bad_json', 'The request body is not well-formed JSON.');
  }
  if (duplicateMembers === 'refused' && twice !== undefined) return refuse('duplicate_member', `The member ${JSON.stringify(twice.slice(0, 100))} is named twice; send each member once.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('bad_body', `The request body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`);
  }
  const object = value as Record<string, unknown>;
  // Own fields only: nothing inherited from Object.prototype counts as sent.
  const field = (key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

  const name = field('name');
  if (name === undefined) return refuse('missing_name', 'name is required.');
  if (typeof name !== 'string') return refuse('bad_name', 'name must be a string.');
  if (name.length === 0) return refuse('empty_name', 'name must not be empty.');
  if (controlCharacters === 'refused' && /\p{Cc}/u.test(name)) return refuse('name_control_character', 'name must not contain control characters.');
  if (codePoints(name) > MAX_NAME_CHARACTERS) return refuse('name_too_long', `name must be at most ${MAX_NAME_CHARACTERS} characters.`);

  const categoryId = field('categoryId');
  if (categoryId === undefined) return refuse('missing_category_id', 'categoryId is required.');
  const exact = typeof categoryId === 'number' && Number.isInteger(categoryId) && Number.isSafeInteger(categoryId) ? BigInt(categoryId) : categoryId;
  if (typeof exact !== 'bigint') return refuse('bad_category_id', 'categoryId must be an integer.');
  if (exact < -(2n ** 63n) || exact > 2n ** 63n - 1n) return refuse('category_id_out_of_range', 'categoryId must be within int64.');

  const status = field('status');
  if (status !== undefined && !STATUSES.has(status)) return refuse('bad_status', 'status must be one of available, pending, sold.');
  const unknown = Object.keys(object).find((key) => !NEW_PET_MEMBERS.has(key));
  if (extraMembers === 'refused' && unknown !== undefined) return refuse('unknown_member', `NewPet has no member ${JSON.stringify(unknown.slice(0, 100))}; send only name, categoryId and status.`);

  const held = exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
  return { ok: true, pet: { name, categoryId: held, status: (status as string | undefined) ?? 'available' } };
}

function refuse(code: string, message: string): NewPetReading {
  return { ok: false, code, message };
}

/** Characters as JSON Schema's maxLength counts them: code points (a lone surrogate counts one). */
function codePoints(text: string): number {
  if (text.length <= MAX_NAME_CHARACTERS) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}
