import type { RefusalAllowance } from '../allow-refusal.js';
import type { ValueSchema } from './schema-model.js';

type ObjectSchema = Extract<ValueSchema, { kind: 'object' }>;

/**
 * The NewPets a target must accept: the document's schema narrowed by what
 * its owner declared it refuses, so the search spends its cases where a
 * refusal is a failure. A declared name limit becomes the name's maxLength;
 * with `categoryId.known`, the categoryId is one the target holds. The
 * empty name has its own probe (withoutEmptyName).
 */
export function acceptedSpace(body: ObjectSchema, allowance: RefusalAllowance, knownCategoryId: number | undefined): ObjectSchema {
  const properties = { ...withoutEmptyName(body).properties };
  const name = properties.name;
  if (allowance.nameMaxLength !== undefined && name?.kind === 'string') properties.name = { ...name, maxLength: Math.min(name.maxLength ?? Infinity, allowance.nameMaxLength) };
  if (allowance.categoryKnown && knownCategoryId !== undefined && properties.categoryId?.kind === 'integer') {
    properties.categoryId = { ...properties.categoryId, minimum: knownCategoryId, maximum: knownCategoryId };
  }
  return { ...body, properties };
}

/**
 * The NewPets rules draw, without the empty name. The empty name is a
 * point of its own, sent once a run by its own probe (create-silent-choices).
 * Drawn by another rule too, it would meet that probe on a server that
 * refuses a name already taken, and which came first would decide both
 * answers: the run's verdicts and what it learns would follow timing.
 */
export function withoutEmptyName(body: ObjectSchema): ObjectSchema {
  const name = body.properties.name;
  if (name?.kind !== 'string' || name.enum || (name.minLength ?? 0) > 0) return body;
  return { ...body, properties: { ...body.properties, name: { ...name, minLength: 1 } } };
}
