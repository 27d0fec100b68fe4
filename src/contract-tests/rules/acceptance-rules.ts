import type { Rule } from '../types.js';
import { extraMemberRules } from './extra-member-rules.js';
import { mediaTypeRules } from './media-type-rules.js';
import { silentChoiceRules } from './silent-choice-rules.js';
import { bodySizeRules } from './body-size-rules.js';

/** What createPet must accept beyond the fields' values: each way of writing the media type, members NewPet does not name, and names and bodies a server may refuse where the interface is silent (the largest body among them). */
export const acceptanceRules: readonly Rule[] = [...mediaTypeRules, ...extraMemberRules, ...silentChoiceRules, ...bodySizeRules];
