import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../shared/package-root.js';
import { BROKEN_RULES, brokenStatements, CONTRACT_BIN, startApiServer, type ApiServer } from '../../test/support/contract-cli.js';
import { childEnv, Processes, requireBuilt } from '../../test/support/processes.js';
import { allRules } from './rules/index.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * The vitest project (`--project contract`) and the CLI give the same
 * verdict for every rule against the same server: one with a few statements
 * broken (see brokenStatements: its faults do not depend on what the store
 * holds, so both runs, writing rules included, see the same behaviour).
 */
const KEY = 'same-verdicts-key';
const VITEST_BIN = join(packageRoot(), 'node_modules', 'vitest', 'vitest.mjs');

interface VitestJson {
  numTotalTests: number;
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; ancestorTitles: string[]; status: string; failureMessages: string[] }> }>;
}

const processes = new Processes();
let tmp: string;
let server: ApiServer;

beforeAll(async () => {
  requireBuilt(CONTRACT_BIN);
  tmp = mkdtempSync(join(tmpdir(), 'animal-store-same-verdicts-'));
  server = await startApiServer({ apiKey: KEY, wrap: brokenStatements(KEY) });
});

afterEach(async () => {
  await processes.killAll();
});

afterAll(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const MODES = [
  { mode: 'writing', cli: [] as string[], env: {} as Record<string, string> },
  { mode: 'read-only', cli: ['--read-only'], env: { CONTRACT_READ_ONLY: '1' } },
];

describe('the vitest contract project and the CLI', () => {
  it.for(MODES)('give every rule the same verdict against the same faulty server ($mode)', { timeout: 60_000 }, async ({ mode, cli: flags, env }) => {
    const readOnly = mode === 'read-only';
    // The writing run comes first and grows the catalogue past 100.
    const failed = BROKEN_RULES.failed(readOnly ? 'read-only, past 100' : 'writing');
    const cliJson = join(tmp, `cli-${mode}.json`);
    const vitestJson = join(tmp, `vitest-${mode}.json`);
    // Both at once: the faults do not depend on the store, which the writing rules of both runs grow.
    const [cli, vitest] = await Promise.all([
      // One seed for both, so both send the same generated cases; and one session, the shared one, as the vitest project's runs have no other.
      processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--seed', '7', '--shared-session', '--reporter', 'json', '--output', cliJson, ...flags], { cwd: tmp }),
      processes.node([VITEST_BIN, 'run', '--project', 'contract', '--reporter=json', `--outputFile=${vitestJson}`], {
        env: childEnv({ CONTRACT_BASE_URL: server.url, CONTRACT_API_KEY: KEY, CONTRACT_SEED: '7', ...env }),
        cwd: packageRoot(),
      }),
    ]);
    // Both fail: rules fail.
    expect(cli.code, cli.stderr).toBe(1);
    expect(vitest.code, vitest.stdout + vitest.stderr).toBe(1);

    const report = JSON.parse(readFileSync(cliJson, 'utf8')) as SuiteReport;
    const byCli = new Map(report.results.map((r) => [r.id, r.status]));
    const tests = (JSON.parse(readFileSync(vitestJson, 'utf8')) as VitestJson).testResults.flatMap((file) => {
      expect(file.name).toMatch(/contract\.suite\.ts$/);
      return file.assertionResults;
    });
    // "<rule id>: <title>", under the operation's describe.
    const byVitest = new Map(
      tests.map((t) => {
        const id = t.title.slice(0, t.title.indexOf(': '));
        const rule = allRules.find((r) => r.id === id);
        expect(t.title, 'a test per rule, named after it').toBe(`${rule?.id}: ${rule?.title}`);
        expect(t.ancestorTitles).toEqual([rule?.operation]);
        return [id, t.status] as const;
      }),
    );

    const ids = allRules.map((r) => r.id);
    expect([...byCli.keys()].sort()).toEqual([...ids].sort());
    expect([...byVitest.keys()].sort()).toEqual([...ids].sort());
    const verdicts = (of: Map<string, string>) => Object.fromEntries(ids.map((id) => [id, of.get(id)]));
    expect(verdicts(byVitest)).toEqual(verdicts(byCli));

    // The comparison is not empty-handed: each verdict occurs, where the faults put it.
    const having = (status: string) => ids.filter((id) => byCli.get(id) === status).sort();
    expect(having('failed')).toEqual([...failed].sort());
    const writing = allRules.filter((r) => r.writes).map((r) => r.id);
    const skipped = [...BROKEN_RULES.skipped, ...(readOnly ? writing : [])];
    expect(having('skipped')).toEqual(skipped.sort());
    expect(having('passed').length).toBe(ids.length - failed.length - skipped.length);
    // An advisory rule with a warning passes in both.
    for (const id of BROKEN_RULES.warned) {
      expect(report.results.find((r) => r.id === id)?.findings.map((f) => f.level)).toContain('warning');
      expect(byVitest.get(id)).toBe('passed');
    }
    // The writing rules ran in both (or were skipped in both, read-only).
    for (const id of writing) {
      const verdict = readOnly ? 'skipped' : failed.includes(id) ? 'failed' : 'passed';
      expect([byCli.get(id), byVitest.get(id)], id).toEqual([verdict, verdict]);
    }
    expect(report.target.readOnly).toBe(readOnly);
  });
});
