import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/entries/contract.js';
import { createHandlers } from '../../src/entries/msw.js';

/**
 * runContract({ fetch }) against MSW handler sets a team might write: each
 * is the package's handlers with one hand-written handler in front (as a
 * test's `server.use` would put it), breaking one thing the contract says.
 * Each fails with the rule for that thing; the package's own pass.
 */
const failedRules = async (handlers: RequestHandler[]): Promise<string[]> => {
  const report = await runContract({ fetch: async (request) => (await getResponse(handlers, request)) ?? Response.json({ code: 'no_handler', message: `no handler matched ${request.method} ${new URL(request.url).pathname}`, status: 404 }, { status: 404 }) }, { seed: 7 });
  return report.results.filter((result) => result.status === 'failed').map((result) => result.id);
};

const withInFront = (handler: RequestHandler): RequestHandler[] => [handler, ...createHandlers().handlers];

describe('runContract against MSW handlers that break the contract', () => {
  it('fails a create answered 200 instead of 201', { timeout: 60_000 }, async () => {
    const created = http.post('*/v1/pets', async ({ request }) => {
      const pet = (await request.json()) as object;
      return HttpResponse.json({ id: 1000, ...pet }, { status: 200 });
    });
    expect(await failedRules(withInFront(created))).toEqual(expect.arrayContaining(['create-returns-pet']));
  });

  it('fails a missing animal answered without the Error body', { timeout: 60_000 }, async () => {
    const missing = http.get('*/v1/pets/:petId', ({ params }) => (Number(params.petId) > 30 || Number.isNaN(Number(params.petId)) ? new HttpResponse('Not Found', { status: 404 }) : undefined));
    expect(await failedRules(withInFront(missing))).toEqual(expect.arrayContaining(['get-unknown-id']));
  });

  it('fails handlers that keep no state: a created animal is not there to read', { timeout: 60_000 }, async () => {
    const forgetful = http.get('*/v1/pets/:petId', ({ params }) =>
      Number(params.petId) > 30 ? HttpResponse.json({ code: 'pet_not_found', message: 'No animal has that id.', status: 404 }, { status: 404 }) : undefined,
    );
    expect(await failedRules(withInFront(forgetful))).toEqual(expect.arrayContaining(['create-readable-via-get-pet']));
  });

  it('passes the package handlers alone', { timeout: 60_000 }, async () => {
    expect(await failedRules(createHandlers().handlers)).toEqual([]);
  });
});
