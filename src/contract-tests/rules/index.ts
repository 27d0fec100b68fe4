import type { Rule } from '../types.js';
import { authNearMissRules } from './auth-near-miss-rules.js';
import { authRules } from './auth-rules.js';
import { createPetRules } from './create-pet-rules.js';
import { generatedCreateRules } from './generated-create-rules.js';
import { getPetRules } from './get-pet-rules.js';
import { generatedGetRules } from './generated-get-rules.js';
import { generatedListRules } from './generated-list-rules.js';
import { listingInvariantRules } from './listing-invariant-rules.js';
import { statefulRules } from './stateful-rules.js';
import { listPetsRules } from './list-pets-rules.js';
import { acceptanceRules } from './acceptance-rules.js';
import { int64Rules } from './int64-rules.js';
import { authGeneratedRules } from './auth-generated-rules.js';
import { pathFormRules } from './path-form-rules.js';
import { readBeforeCreateRules } from './read-before-create-rules.js';
import { variationRules } from './variation-rules.js';
import { overrideRules } from './variation-override-rules.js';
import { authConnectionRule } from './auth-connection-rules.js';
import { authCookieRule } from './auth-cookie-rules.js';
import { methodRules } from './http-method-rules.js';
import { headRules } from './http-head-rules.js';
import { cacheRules } from './http-cache-rules.js';
import { revalidationRules } from './revalidation-rules.js';
import { readBackRules } from '../read-back.js';

/** Every rule, grouped by operation as reports show them; the read-back after the pause last. */
export const allRules: readonly Rule[] = [...listPetsRules, ...generatedListRules, ...listingInvariantRules, ...createPetRules, ...generatedCreateRules, ...acceptanceRules, ...int64Rules, ...statefulRules, ...readBeforeCreateRules, ...getPetRules, ...generatedGetRules, ...pathFormRules, ...authRules, ...authNearMissRules, ...authGeneratedRules, authConnectionRule, authCookieRule, ...variationRules, ...overrideRules, ...methodRules, ...headRules, ...cacheRules, ...revalidationRules, ...readBackRules];

const ids = new Set<string>();
for (const rule of allRules) {
  if (ids.has(rule.id)) throw new Error(`duplicate rule id ${rule.id}`);
  ids.add(rule.id);
}
