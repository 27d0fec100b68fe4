import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { expectErrorBody, parseResponses, rawExchange } from '../../../../test/support/raw-http.js';

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;

describe('stalled and slow requests (short timeouts for the test)', () => {
  const mock = useMock({ transport: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, connectionsCheckingIntervalMs: 50 } });

  it.each([
    ['headers that never end', 'GET /v1/pets HTTP/1.1\r\nHost: a\r\n'],
    ['a connection that sends nothing', ''],
    ['a body that stalls', `POST /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`],
  ])('answers %s with 408 and an Error body, then closes', async (_, request) => {
    const answer = await rawExchange(mock.port, request, { halfClose: false });
    const [response, ...more] = parseResponses(answer.bytes);
    expect(response?.status).toBe(408);
    expectErrorBody(response!, 'request_timeout');
    expect(more).toEqual([]);
    expect(answer.closed).toBe(true);
  });

  it('closes an idle keep-alive connection without a word', async () => {
    const answer = await rawExchange(mock.port, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`, { halfClose: false });
    // One answer (the 200), nothing after it, and the connection closed by the server.
    expect(parseResponses(answer.bytes).map((r) => r.status)).toEqual([200]);
    expect(answer.closed).toBe(true);
  });
});

describe('the connection limit', () => {
  const mock = useMock({ transport: { maxConnections: 2 } });

  /** A connection the server has counted: one request answered on it, kept alive. */
  const heldConnection = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(mock.port, '127.0.0.1', () => socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`));
      socket.once('data', () => resolve(socket));
      socket.once('error', reject);
    });

  it('answers a connection over the limit with 503, Retry-After and an Error body, and serves again once one closes', async () => {
    const held = [await heldConnection(), await heldConnection()];
    const over = await rawExchange(mock.port, `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
    const [response, ...more] = parseResponses(over.bytes);
    expect(response?.status).toBe(503);
    expectErrorBody(response!, 'too_many_connections');
    expect(response?.headers['retry-after']).toBe('1');
    expect(more, 'the request on a refused connection is not served').toEqual([]);
    expect(over.closed).toBe(true);

    const closed = held.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    held[0]?.destroy();
    await closed[0];
    // The server learns of the close a moment after the client: ask until it has (a few tries at most).
    let status = 503;
    for (let tries = 0; tries < 50 && status === 503; tries += 1) {
      const answer = await rawExchange(mock.port, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
      status = parseResponses(answer.bytes)[0]?.status ?? 0;
    }
    expect(status).toBe(200);
    held[1]?.destroy();
  });
});
