import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type MockEngine } from '../../src/entries/fetch.js';
import { runContract } from '../../src/entries/contract.js';
import { startMock, stop, useBuiltCli, type RunningMock } from '../support/built-cli.js';
import { HTTP_CASES, seen } from './http-cases.js';

/**
 * The engine in-process answers as the node server does over HTTP: one
 * list of cases, sent in order to each, the same answers back; and the
 * contract harness passes the engine through `runContract({ fetch })`.
 */
useBuiltCli();

describe('the engine and the node server', () => {
  let server: RunningMock;
  let engine: MockEngine;
  beforeAll(async () => {
    [server, engine] = await Promise.all([startMock(), createMock()]);
  });
  afterAll(async () => {
    await Promise.all([stop(server), engine.close()]);
  });

  it('give the same answers to every case, in order', async () => {
    const origin = new URL(server.url).origin;
    for (const { name, method = 'GET', path, headers = {}, body } of HTTP_CASES) {
      const init = { method, headers, body };
      const [overHttp, inProcess] = await Promise.all([fetch(origin + path, init).then(seen), engine.fetch(`http://localhost${path}`, init).then(seen)]);
      expect({ name, ...inProcess }).toEqual({ name, ...overHttp });
    }
  });
});

describe('the contract harness through runContract({ fetch })', () => {
  it.each(Array.from({ length: 20 }, (_, i) => i + 1))('passes a fresh engine, seed %i', { timeout: 60_000 }, async (seed) => {
    const engine = await createMock();
    const report = await runContract({ fetch: (request) => engine.fetch(request) }, { seed });
    expect(report.results.filter((result) => result.status === 'failed').map((result) => result.id)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(60);
    await engine.close();
  });
});
