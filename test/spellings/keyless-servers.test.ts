import { describe, it } from 'vitest';
import { KEYLESS_ALL } from './keyless-servers.js';
import { bothCurlLinesReproduce, runSpelling } from './run-spelling.js';
import type { SpellingServerSpec } from './spelling-server.js';
import { FAULTY_SERVER_KEY } from '../faulty-servers/defect.js';

/**
 * Servers that answer, without the key, a request the harness sends beside
 * the operations' own (a CORS preflight, a cache directive after a keyed
 * request, a multipart createPet, another method), or read a field over two
 * lines from its first: each run through the built CLI with --seed 1 over
 * real HTTP. A key bypass must be failed by a contract rule whose report
 * carries a curl line of the request that got in and one of the plain
 * request that got 401, which pasted into bash show the difference; the
 * correct servers pass.
 */

const spec = (id: string): SpellingServerSpec => {
  const found = KEYLESS_ALL.find((s) => s.name.startsWith(`${id} `));
  if (!found) throw new Error(`no spelling server ${id}`);
  return found;
};

const VARY = ['vary-list-pets', 'vary-get-pet', 'vary-create-pet'];

const CAUGHT: Array<{ id: string; rules: string[]; bothLines: boolean; line: RegExp }> = [
  { id: 'T2', rules: ['cache-keyless-list-pets', 'cache-keyless-get-pet'], bothLines: true, line: /-H '[Cc]ache-[Cc]ontrol: [^']*(max-stale|only-if-cached)/ },
  // A preflight served as GET once the CORS fields are written: the override rule's OPTIONS, no preflight, gets the mock's 204.
  { id: 'T4b', rules: ['cors-preflight-no-data'], bothLines: true, line: /-X OPTIONS .*access-control-request-method/i },
  // With the key: a 406 where the one-line Accept got 200; no key bypass, so the keyed lines (key redacted) are what the report shows.
  { id: 'T8', rules: VARY, bothLines: false, line: /-H '[Aa]ccept: [^']*'.* -H '[Aa]ccept: / },
  // The parts as curl -F writes them (curl draws its own boundary).
  { id: 'T9', rules: ['vary-create-pet'], bothLines: true, line: /--form-string 'name=[^']*' --form-string 'categoryId=/ },
  { id: 'T10', rules: ['method-others-list-pets', 'method-others-get-pet'], bothLines: true, line: /-X (QUERY|SEARCH|PROPFIND|REPORT) / },
];

describe('servers answering keyless requests beside the operations, or a field over two lines, are caught', () => {
  it.for(CAUGHT)('$id is failed by one of $rules', { timeout: 90_000 }, async ({ id, rules, bothLines, line }, { expect, annotate }) => {
    const result = await runSpelling(spec(id));
    await annotate(`${spec(id).name}: failed ${result.failed.join(', ') || 'no contract rule'}`);
    expect(result.exitCode).toBe(1);
    const rule = rules.find((r) => result.failed.includes(r));
    expect(rule, `one of ${rules.join(', ')} among ${JSON.stringify(result.failed)}`).toBeDefined();
    expect((result.replays.get(rule as string) ?? []).some((l) => line.test(l)), `a replay line of ${rule} matching ${line}: ${JSON.stringify(result.replays.get(rule as string))}`).toBe(true);
    if (bothLines) expect(bothCurlLinesReproduce(result, rule as string), `the keyless curl lines of ${rule}: ${JSON.stringify(result.pasted.get(rule as string))}`).toBe(true);
    expect(result.pretty).not.toContain(FAULTY_SERVER_KEY);
  });


  it('T4 (every OPTIONS exempt from the key and served as GET) is failed both as a preflight and as an OPTIONS naming POST in an override field', { timeout: 90_000 }, async ({ expect }) => {
    const result = await runSpelling(spec('T4'));
    expect(result.failed).toEqual(expect.arrayContaining(['cors-preflight-no-data', 'vary-method-override-create-pet']));
    for (const rule of ['cors-preflight-no-data', 'vary-method-override-create-pet']) expect(bothCurlLinesReproduce(result, rule), JSON.stringify(result.pasted.get(rule))).toBe(true);
  });
});

describe('correct servers with another defensible answer pass', () => {
  it.for([
    { id: 'K1', what: 'a CORS preflight answered 204 with its fields, without the key' },
    { id: 'K3', what: 'a shared cache keyed on Authorization too, answering max-stale and only-if-cached from storage' },
  ])('$id ($what) passes', { timeout: 90_000 }, async ({ id }, { expect }) => {
    const result = await runSpelling(spec(id));
    expect(result.failed).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
