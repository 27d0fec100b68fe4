import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/entries/fetch.js';
import { runContract, type FetchFunction } from '../../src/entries/contract.js';

/**
 * runContract({ fetch }) fails a hand-written set of handlers that breaks
 * the contract, naming the rule: each fault below is what teams write by
 * hand (a 200 for a create, an error without the Error body, no state).
 */
const failedRules = async (fetch: FetchFunction): Promise<string[]> => {
  const report = await runContract({ fetch }, { seed: 7 });
  return report.results.filter((result) => result.status === 'failed').map((result) => result.id);
};

/** The engine, with one answer changed by `change`. */
async function withFault(change: (request: Request, answer: Response) => Promise<Response> | Response): Promise<FetchFunction> {
  const engine = await createMock();
  return async (request) => change(request, await engine.fetch(request.clone()));
}

describe('runContract against fetch handlers that break the contract', () => {
  it('fails a create answered 200 instead of 201', { timeout: 60_000 }, async () => {
    const fetch = await withFault((request, answer) => (request.method === 'POST' && answer.status === 201 ? new Response(answer.body, { status: 200, headers: answer.headers }) : answer));
    expect(await failedRules(fetch)).toEqual(expect.arrayContaining(['create-returns-pet', 'create-readable-via-get-pet']));
  });

  it('fails a 404 without the Error body', { timeout: 60_000 }, async () => {
    const fetch = await withFault((_, answer) => (answer.status === 404 ? new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } }) : answer));
    expect(await failedRules(fetch)).toEqual(expect.arrayContaining(['get-unknown-id', 'get-not-an-id']));
  });

  it('fails handlers that keep no state: a created animal is not found', { timeout: 60_000 }, async () => {
    const fetch = await withFault(async (request, answer) => {
      const created = /^\/v1\/pets\/(\d+)$/.exec(new URL(request.url).pathname);
      return request.method === 'GET' && created && Number(created[1]) > 30 ? createMock().then((fresh) => fresh.fetch(request)) : answer;
    });
    expect(await failedRules(fetch)).toEqual(expect.arrayContaining(['create-readable-via-get-pet', 'get-before-and-after-create']));
  });

  it('passes the engine itself', { timeout: 60_000 }, async () => {
    const engine = await createMock();
    expect(await failedRules((request) => engine.fetch(request))).toEqual([]);
  });
});
