import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { expectErrorBody, parseResponses, rawExchange } from '../../../../test/support/raw-http.js';

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
const NAME_CHARS = 900_000;

/** Everything a socket receives until it closes, or until `ms` pass. */
function readAll(socket: Socket, ms: number): Promise<{ bytes: number; closed: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (closed: boolean) => resolve({ bytes, closed });
    const timer = setTimeout(() => done(false), ms);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
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

describe('connections refused for the limit (--max-connections 1)', () => {
  const mock = useMock({ transport: { maxConnections: 1 } });

  it('lets at most as many refused connections linger as the limit, and closes the rest without an answer', async () => {
    const held = connect(mock.port, '127.0.0.1');
    await new Promise((resolve) => held.once('connect', resolve));
    held.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`);
    await new Promise((resolve) => held.once('data', resolve));
    const request = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a\r\n${auth}\r\n`;
    const [first, second] = await Promise.all([rawExchange(mock.port, request, { halfClose: false }), rawExchange(mock.port, request, { halfClose: false })]);
    const answered = [first, second].map((answer) => parseResponses(answer.bytes));
    // One lingers with its 503; the other, past the cap, is closed at once with no bytes.
    expect(answered.map((responses) => responses.length).sort()).toEqual([0, 1]);
    const refused = answered.find((responses) => responses.length === 1)?.[0];
    expect(refused?.status).toBe(503);
    expectErrorBody(refused!, 'too_many_connections');
    expect(first.closed && second.closed).toBe(true);
    held.destroy();
  });
});
