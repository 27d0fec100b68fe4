import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { parseYaml } from '../parse-yaml.js';
import { defaultProfilePath, type Profile } from './profile.js';
import { profileTable } from './profile-table.js';

/** The documentation file whose section `## Where the interface is silent` holds the table of the mock's own choices. */
const SILENT_CHOICES_DOC = 'docs/reference.md';
const HEADING = '## Where the interface is silent';

/** The section under HEADING, to the next heading of its level. */
function section(text: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(HEADING);
  if (start === -1) throw new Error(`${SILENT_CHOICES_DOC} has no heading "${HEADING}"`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The table whose header is the profile table's, as its lines. */
function profileTableIn(text: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| Profile key |'));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

describe('the documented choices where the interface is silent', () => {
  it(`${SILENT_CHOICES_DOC}'s table is the table of profiles/default.yaml (npm run profile-table prints it)`, () => {
    const profile = parseYaml(readFileSync(defaultProfilePath(), 'utf8')) as Profile;
    const documented = profileTableIn(section(readFileSync(join(packageRoot(), SILENT_CHOICES_DOC), 'utf8')));
    expect(documented, `no "| Profile key |" table under "${HEADING}" in ${SILENT_CHOICES_DOC}`).toBeDefined();
    expect(documented).toBe(profileTable(profile.choices));
  });
});
