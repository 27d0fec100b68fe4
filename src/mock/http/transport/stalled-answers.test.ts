import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { expectErrorBody, parseResponses, rawExchange } from '../../../../test/support/raw-http.js';

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
const NAME_CHARS = 900_000;

/** Everything a socket receives until it closes, or until `ms` pass. */
function readAll(socket: Socket, ms: number): Promise<{ bytes: number; data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (closed: boolean) => {
      const data = Buffer.concat(chunks);
      resolve({ bytes: data.length, data, closed });
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('close', () => {
      clearTimeout(timer);
      done(true);
    });
    socket.resume();
  });
}

describe('answers a client does not read (stalled for 0.3 s here)', () => {
  const mock = useMock({ transport: { stalledAnswerMs: 300 } });

  /** A request for a 0.9 MB animal, created in `session` (a session holds one: 1 MiB of additions). */
  const bigAnimal = async (session: string): Promise<string> => {
    const created = await mock.authed('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-session': session },
      body: JSON.stringify({ name: 'n'.repeat(NAME_CHARS), categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    return `GET /v1/pets/${created.json.id} HTTP/1.1\r\nHost: a\r\n${auth}X-Mock-Session: ${session}\r\n\r\n`;
  };

  it('destroys the connection rather than keep its unread answers, and keeps serving', async () => {
    const get = await bigAnimal('pipelined');
    const socket = connect(mock.port, '127.0.0.1');
    socket.pause();
    // Eight pipelined answers of 0.9 MB: more than the sockets' kernel buffers hold, so node keeps the rest.
    await new Promise<void>((resolve) => socket.write(get.repeat(8), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { bytes, closed } = await readAll(socket, 5000);
    expect(closed).toBe(true);
    expect(bytes).toBeLessThan(8 * NAME_CHARS);
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });
});

describe('connections reclaimed at the bound (--max-connections 1: 16 open)', () => {
  const mock = useMock({ transport: { maxConnections: 1 } });

  it('answers the reclaimed connections 503 and closes them (lingering past its bound is in lingering-close.test.ts)', async () => {
    const partial = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const socket = connect(mock.port, '127.0.0.1');
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /v1/pets HTTP/1.1\r\nHost: a\r\n');
        return socket;
      }),
    );
    const answers = partial.map((socket) => readAll(socket, 3000));
    // The server has read every partial head before the new connections come.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Two new connections take the places of the two held longest.
    const arrivals = [connect(mock.port, '127.0.0.1'), connect(mock.port, '127.0.0.1')];
    await Promise.all(arrivals.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
    const served = await rawExchange(mock.port, `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
    expect(parseResponses(served.bytes)[0]?.status).toBe(200);
    const reclaimed = await Promise.all(answers.slice(0, 2));
    // The two held longest: each has its 503 and is closed (one lingers, one is past the cap of one lingering connection).
    expect(reclaimed.map((answer) => answer.closed)).toEqual([true, true]);
    for (const answer of reclaimed) {
      const [response] = parseResponses(answer.data);
      expect(response?.status).toBe(503);
      expectErrorBody(response as NonNullable<typeof response>, 'too_many_connections');
    }
    for (const socket of [...partial, ...arrivals]) socket.destroy();
  });
});
