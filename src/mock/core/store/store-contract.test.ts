import { describeCatalogue } from '../../../../test/support/catalogue-cases.js';
import { describeSessions } from '../../../../test/support/session-cases.js';
import { describeTakenNames, storeOpener } from '../../../../test/support/taken-name-cases.js';

/** The cases every store passes (test/support/*-cases.ts), on the memory store. */
const open = storeOpener();
describeCatalogue('memory', open);
describeTakenNames('memory', open);
describeSessions('memory', open);
