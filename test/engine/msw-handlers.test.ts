import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import createClient from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../src/entries/contract.js';
import { createHandlers } from '../../src/entries/msw.js';

/**
 * The handlers in a real MSW `setupServer`, called as a frontend's unit
 * test calls its API: through the global fetch, with a client made from
 * the contract document's paths (openapi-fetch). State lasts across calls,
 * `reset` in afterEach puts it back, and a test's own `server.use` wins.
 */
const API = 'https://api.example.test';
const animalStore = createHandlers({ baseUrl: API });
const server = setupServer(...animalStore.handlers);
// fetch read at each call: MSW replaces the global one in listen(), after this module is loaded.
const client = createClient({ baseUrl: `${API}/v1`, headers: { authorization: 'Bearer animal-store-dev-key' }, fetch: (request) => fetch(request) });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await animalStore.reset();
});
afterAll(() => server.close());

describe('the MSW handlers in setupServer', () => {
  it('keep a catalogue across calls: a created animal is read and listed', async () => {
    const created = await client.POST('/pets' as never, { body: { name: 'Biscuit', categoryId: 2, status: 'pending' } } as never);
    expect(created.response.status).toBe(201);
    const id = (created.data as unknown as { id: number }).id;
    const read = await client.GET(`/pets/${id}` as never);
    expect(read.data).toEqual({ id, name: 'Biscuit', categoryId: 2, status: 'pending' });
    const pending = await fetch(`${API}/v1/pets?status=pending&limit=100`, { headers: { authorization: 'Bearer animal-store-dev-key' } });
    expect(((await pending.json()) as Array<{ id: number }>).map((pet) => pet.id)).toContain(id);
  });

  it('are back to the start after reset: the animal created before is gone', async () => {
    const read = await fetch(`${API}/v1/pets/31`, { headers: { authorization: 'Bearer animal-store-dev-key' } });
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ code: 'pet_not_found', status: 404 });
  });

  it('answer as the mock does: a 401 with its challenge, the admin API', async () => {
    const refused = await fetch(`${API}/v1/pets`);
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="animal-store"']);
    const health = await fetch(`${API}/__mock/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', scenario: 'default', pets: 30 });
  });

  it("give way to a test's own handler", async () => {
    server.use(http.get(`${API}/v1/pets/1`, () => HttpResponse.json({ code: 'service_unavailable', message: 'down for this test', status: 503 }, { status: 503 })));
    expect((await fetch(`${API}/v1/pets/1`, { headers: { authorization: 'Bearer animal-store-dev-key' } })).status).toBe(503);
    expect((await fetch(`${API}/v1/pets/2`, { headers: { authorization: 'Bearer animal-store-dev-key' } })).status).toBe(200);
  });

  it('with a bad option, reject ready and answer every request with the Error naming it', async () => {
    const broken = createHandlers({ baseUrl: 'https://broken.example.test', fixtures: [{ id: 1 }] as never });
    // Named for the function called: the user never called createMock.
    await expect(broken.ready).rejects.toThrow(/^createHandlers: invalid fixtures: \$\[0\]\.name is required/);
    const answer = await getResponse(broken.handlers, new Request('https://broken.example.test/v1/pets'));
    expect(answer?.status).toBe(500);
    expect(await answer?.json()).toMatchObject({ code: 'internal_error', message: expect.stringMatching(/^createHandlers: invalid fixtures/) });
  });

  it('name createHandlers, and its own baseUrl among the known options, in every refusal', async () => {
    const misspelt = createHandlers({ baseUrl: 'https://broken.example.test', fixture: [] } as never);
    await expect(misspelt.ready).rejects.toThrow(/^createHandlers: unknown option "fixture" \(known: apiKeys, .*, log, baseUrl\)$/);
    const scenario = createHandlers({ scenario: { name: 'mine' } });
    await expect(scenario.ready).rejects.toThrow(/^createHandlers: invalid scenario "mine" \(given to createHandlers\): \$\.description is required/);
  });
});

/** A team's own hand-written handlers, checked through MSW's getResponse. */
const judged = async (handlers: RequestHandler[]): Promise<string[]> => {
  const report = await runContract({ fetch: async (request) => (await getResponse(handlers, request)) ?? Response.json({ code: 'no_handler', message: `no handler matched ${request.method} ${new URL(request.url).pathname}`, status: 404 }, { status: 404 }) }, { seed: 3 });
  return report.results.filter((result) => result.status === 'failed').map((result) => result.id);
};

const PETS = [{ id: 1, name: 'Milo', categoryId: 3, status: 'available' }];
const refusedWithoutKey = ({ request }: { request: Request }) =>
  request.headers.get('authorization') === 'Bearer animal-store-dev-key' ? undefined : HttpResponse.json({ code: 'unauthorized', message: 'no key', status: 401 }, { status: 401, headers: { 'www-authenticate': 'Bearer' } });

describe("runContract against a team's own MSW handlers", () => {
  it('names what a stateless set breaks: a 200 for a create, no Error body, nothing kept', { timeout: 60_000 }, async () => {
    const handwritten = [
      http.all('*/v1/*', refusedWithoutKey),
      http.get('*/v1/pets', () => HttpResponse.json(PETS)),
      http.get('*/v1/pets/:id', ({ params }) => (params.id === '1' ? HttpResponse.json(PETS[0]) : new HttpResponse('not found', { status: 404 }))),
      http.post('*/v1/pets', async ({ request }) => HttpResponse.json({ id: 2, ...((await request.json()) as object) })),
    ];
    expect(await judged(handwritten)).toEqual(expect.arrayContaining(['create-returns-pet', 'get-unknown-id', 'create-readable-via-get-pet']));
  });
});
