// Type-checked inside a project that installed the packed package: the entry points' types as a user's editor sees them.
import { createMock, type CreateMockOptions, type MockEngine } from 'animal-store-mock/fetch';
import { createHandlers, type MockHandlers } from 'animal-store-mock/msw';
import { runContract, type ContractReport } from 'animal-store-mock/contract';
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const options: CreateMockOptions = { seed: 7, apiKeys: ['k1'] };
export const engine: Promise<MockEngine> = createMock(options);
export const handlers: MockHandlers = createHandlers({ baseUrl: 'https://api.example.test' });
export const report: Promise<ContractReport> = engine.then((mock) => runContract({ fetch: (request) => mock.fetch(request) }));
export const failed: Promise<number> = report.then((r) => r.summary.failed);
// A contract run's report: its own fields read without narrowing on kind.
export const seed: Promise<number> = report.then((r) => r.seed);
export const wrongKey: Promise<string | undefined> = report.then((r) => (r.ok ? undefined : r.wrongTarget?.message));
// @ts-expect-error: an option createMock does not take
export const wrong = createMock({ seeds: 1 });

// A client typed from the package's contract document (openapi-typescript), against the engine.
const client = createClient<paths>({ baseUrl: 'http://localhost/v1', fetch: (request) => engine.then((mock) => mock.fetch(request)) });
export const pet = client.GET('/pets/{petId}', { params: { path: { petId: 1 } }, headers: { Authorization: 'Bearer animal-store-dev-key' } }).then(({ data }) => data?.name);
// @ts-expect-error: the contract has no such path
export const nowhere = client.GET('/animals');
