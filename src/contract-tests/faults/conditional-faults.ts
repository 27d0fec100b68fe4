import { conditionalAuthFaults } from './conditional-auth-faults.js';
import { conditionalDataFaults } from './conditional-data-faults.js';
import { conditionalInputFaults } from './conditional-input-faults.js';
import { conditionalListingFaults } from './conditional-listing-faults.js';
import { conditionalParameterFaults } from './conditional-parameter-faults.js';
import type { Fault } from './fault.js';

/**
 * Faults that break the interface only under a condition the fixed-request
 * rules never create (a near-miss of the key, a boundary value, a
 * parameter outside the document, a limit of 99 or past 100, creates sent
 * at once): the fixed rules pass them, the generated and searching rules
 * must not.
 */
export const conditionalFaults: Fault[] = [...conditionalAuthFaults, ...conditionalDataFaults, ...conditionalInputFaults, ...conditionalParameterFaults, ...conditionalListingFaults];
