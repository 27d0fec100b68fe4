import { describe, it } from 'vitest';
import { CONTRACT_BIN, startApiServer, type AppFetch } from '../../test/support/contract-cli.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { childEnv } from '../../test/support/processes.js';

/**
 * A target whose answers nest JSON 400,000 levels deep (valid JSON, under
 * the 1 MiB the harness reads): a run kept a tree of megabytes for each, and
 * was past 4 GiB and five minutes when stopped. Read no deeper than 512
 * levels, each such answer is a finding that says why, and the run ends.
 */
const KEY = 'contract-deep-key';
const { processes, servers, dir } = useContractRun('contract-deep');
const DEEP = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;

/** The real mock, each listPets page's first animal given an extra member that deep. */
const deepPages: (fetch: AppFetch) => AppFetch = (fetch) => async (request) => {
  const answer = await fetch(request);
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.pathname !== '/v1/pets' || answer.status !== 200) return answer;
  const text = await answer.text();
  const deep = text.replace(/^\[\{/, `[{"extra":${DEEP},`);
  return new Response(deep, { status: 200, headers: { 'content-type': 'application/json' } });
};

describe('answers nested 400,000 levels deep', () => {
  it('are each a finding naming the bound, and the whole run ends (exit 1)', { timeout: 120_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY, wrap: deepPages });
    servers.push(server);
    const result = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--reporter', 'json'], { env: childEnv(), cwd: dir() });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { results: Array<{ id: string; status: string; findings: Array<{ message: string }> }> };
    const deepFindings = report.results.flatMap((r) => r.findings.map((f) => f.message)).filter((m) => m.includes('more than 512 levels deep'));
    expect(deepFindings.length).toBeGreaterThan(0);
    expect(report.results.find((r) => r.id === 'list-status-available')?.status).toBe('failed');
    // A getPet answer is untouched by the wrap: those rules still pass.
    expect(report.results.find((r) => r.id === 'get-unknown-id')?.status).toBe('passed');
  });
});
