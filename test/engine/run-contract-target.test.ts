import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/entries/contract.js';
import { startRawServer } from '../support/contract-cli.js';
import { startMock, useBuiltCli } from '../support/built-cli.js';

/**
 * runContract({ baseUrl }) against servers on real ports: the base URL and
 * the rule ids are held to the command's rules, and a wrong key is a
 * report, not an Error.
 */
useBuiltCli();

describe('runContract and its target', () => {
  it('rejects a base URL without /v1 as the command does, or an unknown rule id, and sends it nothing', async () => {
    const server = await startRawServer((_request, response) => response.writeHead(404).end());
    try {
      const origin = server.url.replace(/\/v1$/, '');
      await expect(runContract({ baseUrl: origin })).rejects.toThrow(`runContract: the base URL must be http(s) and end in /v1, got ${JSON.stringify(origin)}`);
      await expect(runContract({ baseUrl: `${origin}/v2` })).rejects.toThrow('the base URL must be http(s) and end in /v1');
      // A slip in a rule id: the id meant, and nothing of the command's --list, which a caller of the function has not.
      await expect(runContract({ baseUrl: server.url }, { only: ['list-limt-1'] })).rejects.toThrow(/^runContract: unknown rule id: list-limt-1 \(did you mean list-limit-1\?\)$/);
      expect(server.requests).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('takes /v1 with a trailing slash', { timeout: 60_000 }, async () => {
    const mock = await startMock();
    const report = await runContract({ baseUrl: `${mock.url}/` }, { only: ['list-limit-1'] });
    expect([report.ok, report.results.find((result) => result.id === 'list-limit-1')?.status]).toEqual([true, 'passed']);
  });

  it('resolves with ok false and wrongTarget set for a wrong key, rather than rejecting', { timeout: 60_000 }, async () => {
    const mock = await startMock();
    const report = await runContract({ baseUrl: mock.url }, { apiKey: 'not-the-mocks-key', readOnly: true, seed: 1 });
    // Typed as a contract run's report: seed and wrongTarget are read without narrowing on kind.
    const { ok, seed, wrongTarget } = report;
    expect({ ok, seed, status: wrongTarget?.status }).toEqual({ ok: false, seed: 1, status: 401 });
    expect(wrongTarget?.message).toMatch(/^every request answered 401: is the key right\?/);
  });
});
