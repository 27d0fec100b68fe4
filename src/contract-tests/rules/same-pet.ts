import { inputModel } from '../generate/schema-model.js';
import type { Pet } from '../types.js';

/** A Pet's fields, from the document: NewPet's and the assigned `id`. */
const FIELDS = ['id', ...Object.keys(inputModel().createBody.properties)] as Array<keyof Pet>;

/**
 * Whether two answers carry the same animal: field by field, so the order
 * of a JSON object's members (which carries no meaning, RFC 8259 §4) and
 * fields the document does not describe do not count.
 */
export function samePet(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  return FIELDS.every((field) => Object.is((a as Pet)[field], (b as Pet)[field]));
}
