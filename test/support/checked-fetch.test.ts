import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedFetch, type FidelityFailure } from './checked-fetch.js';

/**
 * The fidelity check must be able to fail: here it faces a server whose
 * every route breaks the contract document in one way.
 */
const faulty: Record<string, { status: number; type: string; body: string }> = {
  'GET /v1/pets': { status: 200, type: 'application/json', body: '[{"id":1,"categoryId":2}]' }, // Pet without name
  'GET /v1/pets/1': { status: 200, type: 'text/plain', body: '{"id":1,"name":"A","categoryId":2}' }, // wrong content type
  'GET /v1/pets/2': { status: 200, type: 'application/json', body: '{"id":"2","name":"A","categoryId":2}' }, // id a string
  'GET /v1/pets/3': { status: 200, type: 'application/json', body: '{"id":3,"name":"A","categoryId":2,"status":"lost"}' }, // status not in the enum
  'POST /v1/pets': { status: 200, type: 'application/json', body: '{"id":1,"name":"A","categoryId":2}' }, // 200 instead of 201
  'GET /v1/pets/4': { status: 418, type: 'application/json', body: '{"code":"teapot","message":"x","status":418}' }, // undocumented status
  'GET /v1/pets/5': { status: 404, type: 'application/json', body: '{"error":"not found"}' }, // Error body of the wrong shape
  'GET /v1/nowhere': { status: 404, type: 'application/json', body: '{"code":"route_not_found","message":"x","status":400}' }, // status field differs
  'GET /v1/pets/6': { status: 200, type: 'application/json', body: '{"id":6,"name":"A"' }, // malformed JSON
  'GET /v1/pets?limit=2': { status: 404, type: 'application/json', body: '{"code":"route_not_found","message":"x","status":404}' }, // a no-route status on an operation
  'GET /v1/pets?limit=3': { status: 501, type: 'application/json', body: '{"code":"not_implemented","message":"x","status":501}' }, // the same
  'GET /v1/pets?limit=4': { status: 403, type: 'application/json', body: '{"code":"forbidden","message":"x","status":403}' }, // a listed status (403 session_forbidden) with another code
  'GET /v1/pets?limit=5': { status: 503, type: 'application/json', body: '{"code":"too_many_connections","message":"x","status":503}' }, // 503 is listed, this code is not
};

describe('the fidelity check', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const answer = faulty[`${req.method} ${req.url}`] ?? { status: 200, type: 'application/json', body: '[]' };
      res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(Object.keys(faulty))('catches %s', async (route) => {
    const [method, url] = route.split(' ') as [string, string];
    const failures: FidelityFailure[] = [];
    await checkedFetch(base, failures)(url.slice('/v1'.length), { method, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.violations.length).toBeGreaterThan(0);
  });

  it('passes a response that keeps the contract', async () => {
    const failures: FidelityFailure[] = [];
    await checkedFetch(base, failures)('/pets?limit=1');
    expect(failures).toEqual([]);
  });
});
