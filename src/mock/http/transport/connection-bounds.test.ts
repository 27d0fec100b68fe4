import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { expectErrorBody, parseResponses, rawExchange, type ParsedResponse } from '../../../../test/support/raw-http.js';

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

/** A connection answered once and kept alive: it holds no request. */
function idleConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`));
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A connection with a request in progress: createPet's head sent, its body not all there. */
async function busyConnection(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
  return socket;
}

/** The status of one request on a new connection. */
async function statusOnNewConnection(port: number): Promise<number> {
  const answer = await rawExchange(port, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
  return parseResponses(answer.bytes)[0]?.status ?? 0;
}

describe('the connection limit counts connections with a request in progress (--max-connections 2)', () => {
  const mock = useMock({ transport: { maxConnections: 2 } });

  it('serves a client while more idle keep-alive connections are open than the limit', async () => {
    const idle = await Promise.all(Array.from({ length: 6 }, () => idleConnection(mock.port)));
    expect(await statusOnNewConnection(mock.port)).toBe(200);
    for (const socket of idle) socket.destroy();
  });

  it('answers a request over the limit with 503, Retry-After and an Error body, and serves again once one ends', async () => {
    const busy = [await busyConnection(mock.port), await busyConnection(mock.port)];
    // The server counts a request once it has read its head: ask until it has (a few tries at most).
    let over: ParsedResponse | undefined;
    let closed = false;
    for (let tries = 0; tries < 50 && over?.status !== 503; tries += 1) {
      const answer = await rawExchange(mock.port, `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
      [over] = parseResponses(answer.bytes);
      closed = answer.closed;
    }
    expect(over?.status).toBe(503);
    expectErrorBody(over!, 'too_many_connections');
    expect(over?.headers['retry-after']).toBe('1');
    expect(JSON.parse(String(over?.body)).message).toContain('--max-connections');
    expect(closed).toBe(true);

    const ended = new Promise((resolve) => busy[0]?.once('close', resolve));
    busy[0]?.destroy();
    await ended;
    let status = 503;
    for (let tries = 0; tries < 50 && status === 503; tries += 1) status = await statusOnNewConnection(mock.port);
    expect(status).toBe(200);
    busy[1]?.destroy();
  });
});

describe('connections open at once (--max-connections 1: 16 open)', () => {
  const mock = useMock({ transport: { maxConnections: 1 } });

  const closedSoon = (socket: Socket, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (socket.destroyed) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  it('at the bound, a new connection takes the place of the idle keep-alive that has rested longest', async () => {
    const idle: Socket[] = [];
    for (let i = 0; i < 16; i += 1) idle.push(await idleConnection(mock.port));
    expect(await statusOnNewConnection(mock.port)).toBe(200);
    expect(await closedSoon(idle[0]!, 2000)).toBe(true);
    const others = await Promise.all(idle.slice(1).map((socket) => closedSoon(socket, 200)));
    expect(others.filter(Boolean)).toEqual([]);
    for (const socket of idle) socket.destroy();
  });

  it('with no idle one, the unfinished request head held longest gets 503 and is closed; the new client is served', async () => {
    const partial: Socket[] = [];
    const received = new Map<Socket, Buffer[]>();
    for (let i = 0; i < 16; i += 1) {
      const socket = connect(mock.port, '127.0.0.1');
      socket.on('error', () => undefined);
      received.set(socket, []);
      socket.on('data', (chunk: Buffer) => received.get(socket)?.push(chunk));
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: a\r\n');
      partial.push(socket);
    }
    // The server has read every partial head before the next connection comes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await statusOnNewConnection(mock.port)).toBe(200);
    expect(await closedSoon(partial[0]!, 3000)).toBe(true);
    const [refused] = parseResponses(Buffer.concat(received.get(partial[0]!) ?? []));
    expect(refused?.status).toBe(503);
    expectErrorBody(refused!, 'too_many_connections');
    expect(await closedSoon(partial[1]!, 200)).toBe(false);
    for (const socket of partial) socket.destroy();
  });

  it('a request in progress is never reclaimed: with the one busy connection held, 20 more take turns for the other 15 places and the busy one is answered', async () => {
    const busy = await busyConnection(mock.port);
    const answered = new Promise<Buffer>((resolve) => busy.once('data', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 20 connections with part of a head (a request on one would be refused: the one busy place is taken): 5 are reclaimed.
    const others: Socket[] = [];
    const ended = new Set<number>();
    for (let i = 0; i < 20; i += 1) {
      const socket = connect(mock.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.once('end', () => ended.add(i)).resume();
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /v1/pets HTTP/1.1\r\n');
      others.push(socket);
    }
    for (let waited = 0; waited < 5000 && ended.size < 5; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    // The five held longest, and no more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([...ended].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    // The rest of the 100 bytes of body.
    busy.write(`"Rex","categoryId":1}`.padEnd(100 - '{"name":'.length));
    expect(parseResponses(await answered)[0]?.status).toBe(201);
    for (const socket of [busy, ...others]) socket.destroy();
  });
});

describe('a connection that sends nothing (closed after 0.3 s here)', () => {
  const mock = useMock({ transport: { silentTimeoutMs: 300, headersTimeoutMs: 5000 } });

  it('is closed without an answer; one that has started its request is left to the headers timeout', async () => {
    const [silent, started] = await Promise.all([
      rawExchange(mock.port, '', { halfClose: false, waitMs: 2000 }),
      rawExchange(mock.port, 'GET /v1/pets HTTP/1.1\r\n', { halfClose: false, waitMs: 1500 }),
    ]);
    expect(silent.closed).toBe(true);
    expect(silent.bytes.length).toBe(0);
    expect(started.closed).toBe(false);
  });
});
