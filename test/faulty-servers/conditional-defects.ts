import { conditionalAuthDefects } from './conditional-auth-defects.js';
import { conditionalDataDefects } from './conditional-data-defects.js';
import { conditionalInputDefects } from './conditional-input-defects.js';
import { conditionalListingDefects } from './conditional-listing-defects.js';
import { conditionalParameterDefects } from './conditional-parameter-defects.js';
import type { Defect } from './defect.js';

/**
 * Defects that break the interface only under a condition the fixed-request
 * rules never create (a near-miss of the key, a boundary value, a
 * parameter outside the document, a limit of 99 or past 100, creates sent
 * at once): the fixed rules pass them, the generated and searching rules
 * must not.
 */
export const conditionalDefects: Defect[] = [...conditionalAuthDefects, ...conditionalDataDefects, ...conditionalInputDefects, ...conditionalParameterDefects, ...conditionalListingDefects];
