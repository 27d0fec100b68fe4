import { inject } from 'vitest';
import { describeCatalogue } from '../../../../test/support/catalogue-cases.js';
import { describeSessions } from '../../../../test/support/session-cases.js';
import { describeTakenNames, storeOpener } from '../../../../test/support/taken-name-cases.js';

/** The cases every store passes (test/support/*-cases.ts), on a real Redis. */
const open = storeOpener(inject('redisUrl'));
describeCatalogue('Redis', open);
describeTakenNames('Redis', open);
describeSessions('Redis', open);
