import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/entries/contract.js';
import { startRawServer } from '../support/contract-cli.js';
import { startMock, useBuiltCli } from '../support/built-cli.js';

/**
 * runContract({ baseUrl }) against servers on real ports: the base URL is
 * held to the command's rule.
 */
useBuiltCli();

describe('runContract and its target', () => {
  it('rejects a base URL without /v1 as the command does, and sends it nothing', async () => {
    const server = await startRawServer((_request, response) => response.writeHead(404).end());
    try {
      const origin = server.url.replace(/\/v1$/, '');
      await expect(runContract({ baseUrl: origin })).rejects.toThrow(`runContract: the base URL must be http(s) and end in /v1, got ${JSON.stringify(origin)}`);
      await expect(runContract({ baseUrl: `${origin}/v2` })).rejects.toThrow('the base URL must be http(s) and end in /v1');
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
});
