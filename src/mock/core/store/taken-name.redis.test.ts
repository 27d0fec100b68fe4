import { inject } from 'vitest';
import { describeTakenNames, storeOpener } from '../../../../test/support/taken-name-cases.js';

/** The taken-name cases every store passes (test/support/taken-name-cases.ts), on a real Redis. */
describeTakenNames('Redis', storeOpener(inject('redisUrl')));
