import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type AppFetch } from '../../test/support/contract-cli.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { childEnv } from '../../test/support/processes.js';

/**
 * A target whose answers nest JSON 400,000 levels deep, or hold 350,000
 * empty arrays (valid JSON, under the 1 MiB the harness reads): a run kept
 * a tree of 13 to 22 MiB for each, and went past 4 GiB. Read no deeper than
 * 512 levels and no wider than 16,384 values, each such answer is one
 * finding that says why, and the run ends.
 */
const KEY = 'contract-deep-key';
const { processes, servers, dir } = useContractRun('contract-deep');
const DEEP = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
const WIDE = `[${Array.from({ length: 300_000 }, () => '[]').join(',')}]`;

/** The real mock, each listPets page's first animal given an extra member `extra`. */
const pagesWith = (extra: string): ((fetch: AppFetch) => AppFetch) => (fetch) => async (request) => {
  const answer = await fetch(request);
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.pathname !== '/v1/pets' || answer.status !== 200) return answer;
  const text = await answer.text();
  return new Response(text.replace(/^\[\{/, `[{"extra":${extra},`), { status: 200, headers: { 'content-type': 'application/json' } });
};

describe.each([
  ['nested 400,000 levels deep', DEEP, 'it nests arrays and objects more than 512 levels deep'],
  ['of 300,000 empty arrays', WIDE, 'it holds more than 16384 JSON values'],
])('answers %s', (_, extra, why) => {
  it('are each one finding naming the bound, and the whole run ends (exit 1)', { timeout: 120_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY, wrap: pagesWith(extra) });
    servers.push(server);
    const result = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--reporter', 'json'], { env: childEnv(), cwd: dir() });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { results: Array<{ id: string; status: string; findings: Array<{ message: string }> }> };
    const messages = report.results.flatMap((r) => r.findings.map((f) => f.message));
    expect(messages).toContain(`the answer's body is not read: ${why}, past what is read`);
    expect(report.results.find((r) => r.id === 'list-status-available')?.status).toBe('failed');
    // A getPet answer is untouched by the wrap: those rules still pass.
    expect(report.results.find((r) => r.id === 'get-unknown-id')?.status).toBe('passed');
  });
});
