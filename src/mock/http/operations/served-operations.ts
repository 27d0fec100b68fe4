import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import type { OperationFactory } from './served-operation.js';

/** Every operation the mock serves, by operationId; a document with an operation not here does not start. */
export const servedOperations: Readonly<Record<string, OperationFactory<any>>> = { listPets, createPet, getPet };
