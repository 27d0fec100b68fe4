import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectErrorBody, parseResponses } from '../../../../test/support/raw-http.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** A createPet head announcing a body over the 1 MiB limit: answered 413 before any of it is read, and the connection closed. */
const head = (bytes: number): string =>
  `POST /v1/pets HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`;

interface Slowloris {
  socket: Socket;
  /** Everything the server sent. */
  received: () => Buffer;
  /** Resolves when the server has closed the connection (a FIN then the close, or a reset), with the milliseconds since the head was sent. */
  closed: Promise<number>;
  stop: () => void;
}

/** Sends the head, then `every` ms a chunk of `chunkBytes` of body, for ever (until stopped or closed). */
async function slowloris(port: number, every: number, chunkBytes = 1024): Promise<Slowloris> {
  // Half-open allowed: the client goes on sending after the server's FIN, as a client still uploading does (node's sockets would end too).
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  const started = performance.now();
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const chunk = Buffer.alloc(chunkBytes, 'a');
  socket.write(head(64 * 1024 * 1024));
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(chunk);
  }, every);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(performance.now() - started);
    }),
  );
  return { socket, received: () => Buffer.concat(chunks), closed, stop: () => clearInterval(timer) };
}

const expect413 = (bytes: Buffer): void => {
  const [answer] = parseResponses(bytes);
  expect(answer?.status).toBe(413);
  expectErrorBody(answer as NonNullable<typeof answer>, 'payload_too_large');
  expect(answer?.headers.connection).toBe('close');
};

describe('a connection the mock closes lingers within its bounds (6 s, 2 s quiet, 4 MiB; 4 at once here)', () => {
  const mock = useMock({ transport: { maxConnections: 4, lingerMs: 6000, lingerIdleMs: 2000, lingerBytes: 4 * 1024 * 1024 } });

  it('a client that sends its body for ever is closed once the time bound is over, after it has read its 413', async () => {
    const client = await slowloris(mock.port, 100);
    const ms = await client.closed;
    expect(ms).toBeGreaterThanOrEqual(5900);
    expect(ms).toBeLessThan(12_000);
    expect413(client.received());
  });

  it('a client that stops sending is closed once it has been quiet past the bound', async () => {
    const client = await slowloris(mock.port, 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.stop();
    // Quiet from 0.3 s: the mock closes 2 s later. A client that sends nothing more learns of it only when it
    // writes again (a closed socket answers with a reset, seen at the write after): bytes again from 4 s, before
    // the time bound, meet it closed at once; had it been lingering still, they would be read until 6 s.
    await new Promise((resolve) => setTimeout(resolve, 3700));
    const again = setInterval(() => client.socket.write('a'), 50);
    const ms = await client.closed;
    clearInterval(again);
    expect(ms).toBeLessThan(5900);
    expect413(client.received());
  });

  it('a client that sends fast is closed once the byte bound is read, and had its answer first', async () => {
    const client = await slowloris(mock.port, 5, 256 * 1024);
    const ms = await client.closed;
    // 4 MiB at 256 KiB each 5 ms take at least 80 ms; the time bound is far.
    expect(ms).toBeLessThan(5900);
    expect413(client.received());
  });

  it('a client that closes its side once it has the answer sees the connection closed at once', async () => {
    const socket = connect(mock.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponses(Buffer.concat(chunks)).length === 1) socket.end();
    });
    const started = performance.now();
    socket.write(head(2 * 1024 * 1024));
    await new Promise((resolve) => socket.once('close', resolve));
    // At once, not at the 2 s quiet bound.
    expect(performance.now() - started).toBeLessThan(1500);
    expect413(Buffer.concat(chunks));
  });

  it('past the bound of lingering connections (--max-connections), a closed one lingers not at all, and each still gets its 413', async () => {
    const clients = await Promise.all(Array.from({ length: 12 }, () => slowloris(mock.port, 50)));
    const times = await Promise.all(clients.map((client) => client.closed));
    // Four lingered for the time bound; the eight past the bound were closed right after their answer.
    expect(times.filter((ms) => ms >= 5900)).toHaveLength(4);
    expect(times.filter((ms) => ms < 4000)).toHaveLength(8);
    for (const client of clients) {
      // Twelve heads at once on four busy places: a few may be answered 503 too_many_connections instead, closed the same way.
      const [answer] = parseResponses(client.received());
      expect([413, 503]).toContain(answer?.status);
      expectErrorBody(answer as NonNullable<typeof answer>);
    }
    // Lingering connections hold no request: the mock serves others meanwhile and after.
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });

  it('a request read whole with Connection: close does not linger: the connection is closed once answered, as node does', async () => {
    const socket = connect({ port: mock.port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const started = performance.now();
    socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`);
    // Bytes after the request: a lingering connection would read them until its 6 s; a closed one resets.
    const more = setInterval(() => socket.writable && socket.write('x'), 50);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(more);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(parseResponses(Buffer.concat(chunks))[0]?.status).toBe(200);
  });

  it('a shutdown does not wait for lingering connections: they hold no request', async () => {
    const client = await slowloris(mock.port, 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await mock.close();
    // Closed at once, not when the lingering connection's 6 s are over (nor at the 8 s shutdown grace).
    expect(performance.now() - started).toBeLessThan(3000);
    await client.closed;
    expect413(client.received());
  });
});
