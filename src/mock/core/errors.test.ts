import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../shared/package-root.js';
import { ERROR_CODES } from './errors.js';

/** The README's error-code table is the users' reference: it must list exactly the codes the mock sends, each with its status. */
describe('the README\'s error codes', () => {
  const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
  const start = readme.indexOf('### Error codes');
  const table = readme.slice(start, readme.indexOf('\n#', start + 1));
  const rows = [...table.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])] as const);

  it('lists every code with its status, and no other', () => {
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODES);
    expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
  });
});
