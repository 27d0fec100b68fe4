import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../shared/package-root.js';
import { ERROR_CODES } from './errors.js';

/** The error-code table of docs/reference.md is the users' reference: it must list exactly the codes the mock sends, each with its status. */
describe('the error codes of the behaviour reference', () => {
  const reference = readFileSync(join(packageRoot(), 'docs', 'reference.md'), 'utf8');
  const start = reference.indexOf('\n### Error codes\n');
  const table = reference.slice(start, reference.indexOf('\n#', start + 1));
  const rows = [...table.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])] as const);

  it('lists every code with its status, and no other', () => {
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODES);
    expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
  });
});
