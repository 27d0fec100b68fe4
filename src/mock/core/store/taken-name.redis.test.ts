import { randomUUID } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { createScenarioLibrary } from '../scenarios/scenario-library.js';
import { STORE_TEST_START, storeTestScenarios } from '../../../../test/support/redis-stores.js';
import { describeTakenNames } from '../../../../test/support/taken-name-cases.js';
import type { MockStore } from './mock-store.js';
import { openStore } from './open-store.js';

/** The taken-name cases every store passes (test/support/taken-name-cases.ts), on a real Redis: each store under a prefix of its own. */
const url = inject('redisUrl');
const contract = loadContract();
const folder = storeTestScenarios();
const stores: MockStore[] = [];
afterAll(() => Promise.all(stores.map((store) => store.close())));

describeTakenNames('Redis', async ({ catalogueLimits } = {}) => {
  const library = createScenarioLibrary({ contract, dir: folder.dir, catalogueLimits });
  const store = await openStore({ url, prefix: `test-${randomUUID()}`, library, start: STORE_TEST_START });
  stores.push(store);
  return store;
});
