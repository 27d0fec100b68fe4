// Run inside a project that installed the packed package and MSW (of either major): the entry points as a user imports them.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createMock } from 'animal-store-mock/fetch';
import { createHandlers } from 'animal-store-mock/msw';
import { runContract } from 'animal-store-mock/contract';

const API = 'https://api.example.test';
const key = { authorization: 'Bearer animal-store-dev-key' };
const animalStore = createHandlers({ baseUrl: API });
const server = setupServer(...animalStore.handlers);
server.listen({ onUnhandledRequest: 'error' });
const out = {};
const created = await fetch(`${API}/v1/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":"Biscuit","categoryId":2}' });
out.created = [created.status, await created.json()];
out.readBack = (await fetch(`${API}/v1/pets/31`, { headers: key })).status;
await animalStore.reset();
out.afterReset = (await fetch(`${API}/v1/pets/31`, { headers: key })).status;
server.use(http.get(`${API}/v1/pets/1`, () => HttpResponse.json({ code: 'service_unavailable', message: 'test', status: 503 }, { status: 503 })));
out.overridden = (await fetch(`${API}/v1/pets/1`, { headers: key })).status;
server.close();
const mock = await createMock();
const report = await runContract({ fetch: (request) => mock.fetch(request) }, { seed: 1 });
out.contract = { passed: report.summary.passed, failed: report.summary.failed };
process.stdout.write(`${JSON.stringify(out)}\n`);
