/**
 * `npm run profile-files`: writes profiles/profile.schema.json,
 * profiles/default.yaml, the table of docs/reference.md and the one of
 * docs/harness-drift.md from the
 * profile points (src/shared/profile/profile-points.ts), after a point is
 * added or changed. Run from dist: `node dist/scripts/write-profile-files.js`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/shared/package-root.js';
import { defaultProfilePath, profileSchemaPath } from '../src/shared/profile/profile-paths.js';
import { defaultProfileText, LEARNED_DOC, profileSchemaText, TABLE_DOC, withLearnedTable, withProfileTable } from './profile-files.js';

const files: Array<[string, (before: string) => string]> = [
  [profileSchemaPath(), () => profileSchemaText()],
  [defaultProfilePath(), () => defaultProfileText()],
  [join(packageRoot(), TABLE_DOC), (before) => withProfileTable(before)],
  [join(packageRoot(), LEARNED_DOC), (before) => withLearnedTable(before)],
];
for (const [path, write] of files) {
  const before = readFileSync(path, 'utf8');
  const after = write(before);
  if (after !== before) writeFileSync(path, after);
  process.stdout.write(`${path}: ${after === before ? 'already up to date' : 'written from the profile points'}\n`);
}
