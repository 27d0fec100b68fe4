import { authFaults } from './auth-faults.js';
import { createFaults } from './create-faults.js';
import { errorFaults } from './error-faults.js';
import type { Fault } from './fault.js';
import { getFaults } from './get-faults.js';
import { listFaults } from './list-faults.js';

/** Every faulty server, each breaking one statement of animal-store-interface.md. */
export const FAULTS: readonly Fault[] = [...listFaults, ...createFaults, ...getFaults, ...authFaults, ...errorFaults];

const names = new Set<string>();
for (const fault of FAULTS) {
  if (names.has(fault.name)) throw new Error(`duplicate fault name ${fault.name}`);
  if (!fault.wrap && !fault.store) throw new Error(`fault ${fault.name} changes nothing`);
  names.add(fault.name);
}
