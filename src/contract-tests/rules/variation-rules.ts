import type { Rule } from '../types.js';
import { variationCreateRule } from './variation-create-rule.js';
import { variationReadRules } from './variation-read-rules.js';

/** Every operation asked again in the other ways a client may write the same request (generate/variations.ts). */
export const variationRules: Rule[] = [...variationReadRules, variationCreateRule];
