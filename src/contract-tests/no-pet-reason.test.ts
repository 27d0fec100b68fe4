import { describe, it } from 'vitest';
import { CONTRACT_BIN, parsePretty, startApiServer, type AppFetch, type TestServer } from '../../test/support/contract-cli.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { childEnv } from '../../test/support/processes.js';

/**
 * The rules that need an existing animal say why none is known: an empty
 * catalogue is one reason, a listPets that failed is another, and a report
 * must not blame the catalogue for a 503.
 */
const KEY = 'contract-no-pet-key';
const { processes, servers, dir } = useContractRun('contract-no-pet');
const kept = <T extends TestServer>(server: T): T => (servers.push(server), server);
const NEEDS_A_PET = ['get-known-id', 'vary-get-pet'];

/** The real mock, with listPets without a query answering 503 (the page the harness reads its known animal from). */
const listingFails: (fetch: AppFetch) => AppFetch = (fetch) => async (request) => {
  const url = new URL(request.url);
  if (request.method === 'GET' && url.pathname === '/v1/pets' && url.search === '') {
    return Response.json({ code: 'service_unavailable', message: 'Try again later.', status: 503 }, { status: 503, headers: { 'retry-after': '1' } });
  }
  return fetch(request);
};

const run = async (server: TestServer) => {
  const result = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--read-only', '--only', NEEDS_A_PET.join(','), '--reporter', 'pretty'], { env: childEnv(), cwd: dir() });
  return parsePretty(result.stdout).rules;
};

describe('why no animal is known', () => {
  it('listPets answered 503: the skip says so, not that the catalogue is empty', async ({ expect }) => {
    const rules = await run(kept(await startApiServer({ apiKey: KEY, wrap: listingFails })));
    for (const id of NEEDS_A_PET) {
      expect(rules.get(id)?.status, id).toBe('skipped');
      expect(rules.get(id)?.text, id).toContain('(skipped: listPets answered 503 service_unavailable instead of a page, so no id is known)');
      expect(rules.get(id)?.text, id).not.toContain('empty');
    }
  });

  it('an empty catalogue: the skip says the catalogue is empty', async ({ expect }) => {
    const rules = await run(kept(await startApiServer({ apiKey: KEY, pets: [] })));
    for (const id of NEEDS_A_PET) expect(rules.get(id)?.text, id).toContain('(skipped: the catalogue is empty (listPets returned no animal), so no id is known)');
  });
});
