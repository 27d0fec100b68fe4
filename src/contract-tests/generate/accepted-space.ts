import type { RefusalAllowance } from '../allow-refusal.js';
import type { ValueSchema } from './schema-model.js';

type ObjectSchema = Extract<ValueSchema, { kind: 'object' }>;

/**
 * The NewPets a target must accept: the document's schema narrowed by what
 * its owner declared it refuses, so the search spends its cases where a
 * refusal is a failure. A declared name limit becomes the name's maxLength;
 * with `categoryId.known`, the categoryId is one the target holds.
 */
export function acceptedSpace(body: ObjectSchema, allowance: RefusalAllowance, knownCategoryId: number | undefined): ObjectSchema {
  const properties = { ...body.properties };
  const name = properties.name;
  if (allowance.nameMaxLength !== undefined && name?.kind === 'string') properties.name = { ...name, maxLength: Math.min(name.maxLength ?? Infinity, allowance.nameMaxLength) };
  if (allowance.categoryKnown && knownCategoryId !== undefined && properties.categoryId?.kind === 'integer') {
    properties.categoryId = { ...properties.categoryId, minimum: knownCategoryId, maximum: knownCategoryId };
  }
  return { ...body, properties };
}
