import { describeTakenNames, storeOpener } from '../../../../test/support/taken-name-cases.js';

/** The taken-name cases every store passes (test/support/taken-name-cases.ts), on the memory store. */
describeTakenNames('memory', storeOpener());
