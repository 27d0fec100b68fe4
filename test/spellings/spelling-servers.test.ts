import { describe, it } from 'vitest';
import { ALL, CORRECT } from './spelling-servers.js';
import { bothCurlLinesReproduce, runSpelling } from './run-spelling.js';
import type { SpellingServerSpec } from './spelling-server.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';

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
  { id: 'P1', rule: 'get-id-path-forms', bothLines: true },
  { id: 'M2', rule: 'vary-method-override-create-pet', bothLines: true },
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

const NEAR_MISS_RULES = ['auth-near-misses-list-pets', 'auth-near-misses-get-pet', 'auth-near-misses-create-pet'];

/** Where each server takes the key, as the report's line for listPets shows it (the first near-miss it lets in). */
const KEY_ELSEWHERE = [
  { id: 'K1', shown: /\/v1\/pets\?access_token=<API key>'/ },
  { id: 'K2', shown: /-H 'cookie: api_key=<API key>'/ },
  { id: 'K3', shown: /-H 'x-api-key: <API key>'/ },
];

describe('the key outside Authorization', () => {
  it.for(KEY_ELSEWHERE)('$id is failed by the three auth-near-misses rules, the plain request without the key shown first, the key redacted', { timeout: 90_000 }, async ({ id, shown }, { expect }) => {
    const result = await runSpelling(spec(id), 1, { fillKey: true });
    expect(result.exitCode).toBe(1);
    expect(result.failed).toEqual(expect.arrayContaining(NEAR_MISS_RULES));
    const [plain, spelled, ...more] = result.replays.get('auth-near-misses-list-pets') ?? [];
    expect(more).toEqual([]);
    // The request without any key, then the one with the key elsewhere: "without the key: 401; with it there: 200".
    expect(plain).toMatch(/^curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' -H 'accept: application\/json'$/);
    expect(spelled).toMatch(shown);
    // Pasted, the second once the key is filled in by hand: 401, then the animals.
    expect(result.pasted.get('auth-near-misses-list-pets')?.map((l) => l.status)).toEqual([401, 200]);
    for (const form of [FAULTY_SERVER_KEY, encodeURIComponent(FAULTY_SERVER_KEY), Buffer.from(FAULTY_SERVER_KEY).toString('base64')]) expect(result.pretty).not.toContain(form);
  });
});

describe('correct spelling servers whose choices the harness allows', () => {
  it.for(CORRECT.map((s) => s.name.split(' ')[0] as string))('%s passes', { timeout: 90_000 }, async (id, { expect, annotate }) => {
    const result = await runSpelling(spec(id));
    await annotate(`${spec(id).name}: failed ${result.failed.join(', ') || 'nothing'}`);
    expect(result.failed).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
