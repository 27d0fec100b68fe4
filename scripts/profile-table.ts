/**
 * `npm run profile-table`: prints the table of the mock's own choices where
 * the interface is silent, from profiles/default.yaml, for the
 * documentation (src/shared/profile/profile-table.test.ts checks the two
 * agree). Run from dist: `node dist/scripts/profile-table.js`.
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from '../src/shared/parse-yaml.js';
import { defaultProfilePath, type Profile } from '../src/shared/profile/profile.js';
import { profileTable } from '../src/shared/profile/profile-table.js';

const profile = parseYaml(readFileSync(defaultProfilePath(), 'utf8')) as Profile;
process.stdout.write(`${profileTable(profile.choices)}\n`);
