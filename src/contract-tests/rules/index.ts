import type { Rule } from '../types.js';
import { authRules } from './auth-rules.js';
import { createPetRules } from './create-pet-rules.js';
import { getPetRules } from './get-pet-rules.js';
import { listPetsRules } from './list-pets-rules.js';

/** Every rule, grouped by operation as reports show them. */
export const allRules: readonly Rule[] = [...listPetsRules, ...createPetRules, ...getPetRules, ...authRules];

const ids = new Set<string>();
for (const rule of allRules) {
  if (ids.has(rule.id)) throw new Error(`duplicate rule id ${rule.id}`);
  ids.add(rule.id);
}
