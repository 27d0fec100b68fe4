import { afterAll, beforeAll, describe, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../test/support/contract-cli.js';
import { createHttpClient } from './http-client.js';

/**
 * A target on a plain node server, as many are (the mock app here, on
 * node's `createServer`): without an 'upgrade' listener node answers a
 * request that asks for an upgrade as HTTP/1.1 and keeps the connection,
 * but what comes after on it is not read as before: a request it cannot
 * parse gets no answer at all. The client sends such requests on a
 * connection of their own, so that the next request with the key (a
 * method the document does not list, which is never retried) is answered.
 */
const KEY = 'upgrade-connection-key';
const H2C = { upgrade: 'h2c', connection: 'Upgrade, HTTP2-Settings', 'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA' };
let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer({ apiKey: KEY });
});

afterAll(() => server.close());

describe('the HTTP client, after a request that asked for an upgrade the target ignored', () => {
  it('gets an answer to the next request with the key', async ({ expect }) => {
    const send = createHttpClient({ baseUrl: server.url, apiKey: KEY, timeoutMs: 3_000, maxBodyBytes: 1024 * 1024, retries: 0 });
    const upgraded = await send({ method: 'GET', path: '/pets?limit=1', headers: H2C });
    expect(upgraded.response?.status).toBe(200);
    const next = await send({ method: 'FROB', path: '/pets' });
    expect(next.networkError).toBeUndefined();
    expect(next.response?.status).toBe(400);
  });
});
