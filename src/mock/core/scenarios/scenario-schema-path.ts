import { join } from 'node:path';
import { packageRoot } from '../../../shared/package-root.js';
import { SCENARIO_SCHEMA_FILE } from './scenario-schema.js';

/** The scenario schema's file in the installed package, for the build scripts that write and compile it. */
export const scenarioSchemaPath = (): string => join(packageRoot(), SCENARIO_SCHEMA_FILE);
