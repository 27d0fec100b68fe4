import { authFaults } from './auth-faults.js';
import { conditionalFaults } from './conditional-faults.js';
import { createFaults } from './create-faults.js';
import { errorFaults } from './error-faults.js';
import type { Fault } from './fault.js';
import { getFaults } from './get-faults.js';
import { listFaults } from './list-faults.js';

/**
 * Every faulty server, each breaking one statement of animal-store-interface.md.
 * The error faults stay last: their slow getPet (the harness's 300 ms timeout)
 * takes most of vitest's 15 s per test, and runs fastest with no other runs alongside.
 */
export const FAULTS: readonly Fault[] = [...listFaults, ...createFaults, ...getFaults, ...authFaults, ...conditionalFaults, ...errorFaults];

const names = new Set<string>();
for (const fault of FAULTS) {
  if (names.has(fault.name)) throw new Error(`duplicate fault name ${fault.name}`);
  if (!fault.wrap && !fault.store) throw new Error(`fault ${fault.name} changes nothing`);
  names.add(fault.name);
}
