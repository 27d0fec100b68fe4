import type { Rule } from '../types.js';
import { extraMemberRules } from './extra-member-rules.js';
import { mediaTypeRules } from './media-type-rules.js';

/** What createPet must accept beyond the fields' values: each way of writing the media type, and members NewPet does not name. */
export const acceptanceRules: readonly Rule[] = [...mediaTypeRules, ...extraMemberRules];
