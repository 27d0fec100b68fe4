/**
 * `npm run scenario-schema`: writes the `then` definition of
 * scenarios/scenario.schema.json from the fault kinds
 * (src/mock/core/faults/fault-kinds.ts), after a kind is added or changed.
 * Run from dist: `node dist/scripts/write-scenario-schema.js`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { scenarioSchemaPath } from '../src/mock/core/scenarios/scenario-schema-path.js';
import { withFaultKinds } from './scenario-schema-then.js';

const path = scenarioSchemaPath();
const before = readFileSync(path, 'utf8');
const after = withFaultKinds(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(`${path}: ${after === before ? 'already up to date' : 'then written from the fault kinds'}\n`);
