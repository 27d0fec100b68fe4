import { gzipSync } from 'node:zlib';
import { afterEach, describe, it } from 'vitest';
import { startRawServer, type TestServer } from '../../test/support/contract-cli.js';
import { sendLargeBody, type SentBody } from '../../test/faulty-servers/large-body.js';
import { createHttpClient } from './http-client.js';
import type { ApiRequest } from './types.js';

/**
 * The HTTP client's bounds on what a target sends, over real HTTP against
 * node:http servers: a body past the cap, a body that never ends, a body
 * of exactly the cap. For a plain request, and for one with a header given
 * as a list (sent once per value).
 */
const KEY = 'bounds-test-key';
const MiB = 1024 * 1024;
const REQUESTS: Array<[string, ApiRequest]> = [
  ['a plain request', { method: 'GET', path: '/pets' }],
  ['a header sent twice', { method: 'GET', path: '/pets', headers: { 'x-twice': ['a', 'b'] } }],
];

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that answers every request with `answer`; what each answer's sending saw is kept. */
async function serve(answer: Parameters<typeof startRawServer>[0] | Parameters<typeof sendLargeBody>[1]): Promise<{ server: TestServer; sent: Array<Promise<SentBody>> }> {
  const sent: Array<Promise<SentBody>> = [];
  const server = await startRawServer(typeof answer === 'function' ? answer : (_request, response) => void sent.push(sendLargeBody(response, answer)));
  servers.push(server);
  return { server, sent };
}

const client = (server: TestServer, limits: { timeoutMs?: number; maxBodyBytes?: number; retries?: number } = {}) =>
  createHttpClient({ baseUrl: server.url, apiKey: KEY, timeoutMs: 10_000, maxBodyBytes: MiB, retries: 2, ...limits });

describe.each(REQUESTS)('the HTTP client, %s', (_, request) => {
  it('stops reading a 50 MiB body past the cap and closes the connection; the answer is kept with its status and the reason, never retried', async ({ expect }) => {
    const { server, sent } = await serve({ size: 50 * MiB });
    const exchange = await client(server)(request);
    expect(exchange.networkError).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    expect(exchange.response?.unread?.reason).toBe("the answer's body passed 1 MiB: not read further");
    expect(exchange.response?.json).toBeUndefined();
    // Only the start is kept, for the reports' excerpts.
    expect(exchange.response?.body.startsWith('[{"id":1,"name":"xxx')).toBe(true);
    expect(exchange.response?.body.length).toBeLessThanOrEqual(4096);
    const [body] = await Promise.all(sent);
    expect(body?.whole).toBe(false);
    expect(body?.sent).toBeLessThan(50 * MiB);
    // An HTTP answer: not sent again despite retries: 2.
    expect(server.requests).toBe(1);
  });

  it('an endless body sent as fast as it is read ends at the cap too', async ({ expect }) => {
    const { server, sent } = await serve({ size: 'endless' });
    const exchange = await client(server, { maxBodyBytes: 64 * 1024 })(request);
    expect(exchange.response?.unread?.reason).toBe("the answer's body passed 64 KiB: not read further");
    expect((await Promise.all(sent))[0]?.whole).toBe(false);
  });

  it('an endless body trickling in ends at the time limit, as an answer whose body did not end', async ({ expect }) => {
    const { server, sent } = await serve({ size: 'endless', everyMs: 20 });
    const exchange = await client(server, { timeoutMs: 400 })(request);
    expect(exchange.response?.status).toBe(200);
    expect(exchange.response?.unread).toEqual({ reason: "the answer's body did not end within 400 ms: not read further", expected: 'the whole answer within 400 ms (--timeout)' });
    expect((await Promise.all(sent))[0]?.whole).toBe(false);
    expect(server.requests).toBe(1);
  });

  it('a body of exactly the cap is read whole and parsed', async ({ expect }) => {
    const cap = 2048;
    const page = JSON.stringify([{ id: 1, name: '', categoryId: 1 }]);
    const body = page.replace('"name":""', `"name":"${'x'.repeat(cap - page.length)}"`);
    const { server } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    const exchange = await client(server, { maxBodyBytes: cap })(request);
    expect(Buffer.byteLength(body)).toBe(cap);
    expect(exchange.response?.unread).toBeUndefined();
    expect(exchange.response?.body).toBe(body);
    expect(exchange.response?.json).toEqual(JSON.parse(body));
  });

  it('a key echoed where the kept start of a cut body ends: neither the key nor its first characters are kept', async ({ expect }) => {
    const secret = 'sk-live-CUT-SECRET-77';
    const { server } = await serve((incoming, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // The kept start is 4,096 bytes: it ends five characters into the key.
      response.end(`${'x'.repeat(4096 - 5)}${(incoming.headers.authorization ?? '').slice('Bearer '.length)}${'x'.repeat(2 * MiB)}`);
    });
    const exchange = await createHttpClient({ baseUrl: server.url, apiKey: secret, timeoutMs: 10_000, maxBodyBytes: MiB, retries: 0 })(request);
    expect(exchange.response?.unread?.reason).toBe("the answer's body passed 1 MiB: not read further");
    expect(exchange.response?.body).toMatch(/^x+$/);
    expect(exchange.response?.body.length).toBe(4096 - 5);
  });

  it('no answer at all within the time limit is a network error, retried for a GET', async ({ expect }) => {
    const { server } = await serve(() => undefined);
    const exchange = await client(server, { timeoutMs: 300, retries: 1 })(request);
    expect(exchange.response).toBeUndefined();
    expect(exchange.networkError).toBe('no answer within 300 ms');
    expect(server.requests).toBe(2);
  });
});

describe('the HTTP client and a compressed body', () => {
  it('counts the bytes decoded: 50 MiB of zeros sent gzipped (51 KB) is cut at the cap', async ({ expect }) => {
    const zipped = gzipSync(Buffer.alloc(50 * MiB));
    const { server } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(zipped);
    });
    const exchange = await client(server)({ method: 'GET', path: '/pets' });
    expect(zipped.length).toBeLessThan(MiB);
    expect(exchange.response?.unread?.reason).toBe("the answer's body passed 1 MiB: not read further");
  });
});
