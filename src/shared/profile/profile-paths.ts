import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The profiles shipped with the package, their JSON Schema among them. */
export const profilesDir = (): string => join(packageRoot(), 'profiles');
export const profileSchemaPath = (): string => join(profilesDir(), 'profile.schema.json');
/** The mock's own choices, as a profile: what it serves without `--profile`. */
export const defaultProfilePath = (): string => join(profilesDir(), 'default.yaml');
