import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'vitest';
import { startApiServer } from '../../test/support/contract-cli.js';
import { createResponseValidator } from '../document/response-validator.js';
import { runSuite } from './run-suite.js';

/**
 * Host written another way, over real HTTP, against a base URL given by
 * name (`http://localhost:PORT/v1`), where the host has a case to change
 * and a DNS name to end with a dot: each form reaches the server as
 * written, and a server that reads the host case-sensitively fails with
 * the case shrunk to that form.
 */
const KEY = 'variation-host-key';
const validator = createResponseValidator();

async function runOn(intercept: (request: IncomingMessage, response: ServerResponse) => boolean) {
  const server = await startApiServer({ apiKey: KEY, intercept });
  try {
    const port = new URL(server.url).port;
    const run = await runSuite({ baseUrl: `http://localhost:${port}/v1`, apiKey: KEY, seed: 1, only: ['vary-list-pets'], validator: await validator });
    if (!run.ok) throw new Error(run.error.message);
    return { port, result: run.report.results.find((r) => r.id === 'vary-list-pets') };
  } finally {
    await server.close();
  }
}

describe('Host written another way', () => {
  it('reaches the server in each form, and the mock passes', { timeout: 60_000 }, async ({ expect }) => {
    const seen = new Set<string>();
    const { port, result } = await runOn((request) => {
      seen.add(request.headers.host ?? '');
      return false;
    });
    expect(result?.status).toBe('passed');
    // RFC 3986 §6.2.2.1: the host in upper case; then the other names, each tried alone.
    expect([...seen]).toEqual(expect.arrayContaining([`localhost:${port}`, `LOCALHOST:${port}`, `localhost.:${port}`, 'LOCALHOST.', `[::1]:${port}`]));
  });

  it('fails a server that reads the host case-sensitively, shrunk to Host in upper case', { timeout: 60_000 }, async ({ expect }) => {
    // A virtual host table compared byte for byte: 404 to a name it does not list.
    const { result } = await runOn((request, response) => {
      if (!/[A-Z]/.test(request.headers.host ?? '') || /^LOCALHOST\.$/.test(request.headers.host ?? '')) return false;
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'unknown_host', message: 'no such site', status: 404 }));
      return true;
    });
    expect(result?.status).toBe('failed');
    const finding = result?.findings.find((f) => f.level === 'error');
    expect(finding?.message).toBe('answered 404 where the same request written as the harness always writes it got 200');
    expect(finding?.reproduce?.case).toMatch(/, Host "in upper case"$/);
    expect(finding?.reproduce?.curl).toMatch(/-H 'host: LOCALHOST:\d+'/);
  });
});
