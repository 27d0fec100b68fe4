import { describe, it } from 'vitest';
import { ALL } from './spelling-servers.js';
import { bothCurlLinesReproduce, runSpelling } from './run-spelling.js';
import type { SpellingServerSpec } from './spelling-server.js';

/**
 * Servers written from the spellings browsers, generated clients, proxies
 * and curl produce (beside those of test/faulty-servers/), each run through
 * the built CLI with --seed 1 over real HTTP: the contract rule that
 * catches it, and, for a key bypass the variation rules find, both curl
 * lines in the report (the plain request and the spelled one, without the
 * key), which pasted into bash show the difference.
 */

const spec = (id: string): SpellingServerSpec => {
  const found = ALL.find((s) => s.name.startsWith(`${id} `));
  if (!found) throw new Error(`no spelling server ${id}`);
  return found;
};

const CAUGHT: Array<{ id: string; rule: string; bothLines: boolean }> = [
  { id: 'U6', rule: 'vary-get-pet', bothLines: true },
  { id: 'U15', rule: 'vary-list-pets', bothLines: false },
  { id: 'U15b', rule: 'vary-list-pets', bothLines: false },
  { id: 'F13', rule: 'vary-list-pets', bothLines: true },
];

describe('spelling servers the harness catches', () => {
  it.for(CAUGHT)('$id is failed by $rule', { timeout: 90_000 }, async ({ id, rule, bothLines }, { expect, annotate }) => {
    const result = await runSpelling(spec(id));
    await annotate(`${spec(id).name}: caught by ${result.failed.join(', ') || 'no contract rule'}`);
    expect(result.exitCode).toBe(1);
    expect(result.failed).toContain(rule);
    if (bothLines) expect(bothCurlLinesReproduce(result, rule), `the keyless curl lines of ${rule}: ${JSON.stringify(result.pasted.get(rule))}`).toBe(true);
  });

  it('U15 (a percent-encoded query name ignored) is reported with both keyed curl lines, the plain and the spelled query', { timeout: 90_000 }, async ({ expect }) => {
    const result = await runSpelling(spec('U15b'));
    const lines = result.replays.get('vary-list-pets') ?? [];
    expect(lines.some((line) => /\/v1\/pets\?limit=\d/.test(line))).toBe(true);
    // The path may keep some of its spelling after shrinking (`/v1/p%65t%73?%6cimit=1`): the query's is what differs.
    expect(lines.some((line) => /\/v1\/[^?']*\?%6[cC]imit=\d/.test(line))).toBe(true);
  });
});

describe('a correct spelling server whose refusals the harness allows', () => {
  it('C3 (400 to override fields, route-first 404 to /v1/pets/, 400 to an undocumented parameter) passes', { timeout: 90_000 }, async ({ expect }) => {
    const result = await runSpelling(spec('C3'));
    expect(result.failed).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
