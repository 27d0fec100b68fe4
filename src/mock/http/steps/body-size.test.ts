import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { BODIES_IN_FLIGHT_BYTES } from './body-size.js';

const MiB = 1024 * 1024;

describe('the process-wide budget of request bodies being read at once', () => {
  const mock = useMock();
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
  });

  /** A createPet that declares a 1 MiB body (or a chunked one, which may be up to 1 MiB) and sends only its first bytes, then waits: a slow upload. */
  const slowUpload = (port: number, framing: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        const start = framing === 'chunked' ? 'Transfer-Encoding: chunked\r\n\r\n9\r\n{"name":"\r\n' : `Content-Length: ${MiB}\r\n\r\n{"name":"`;
        socket.write(`POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n${start}`);
        resolve(socket);
      });
      socket.on('error', reject);
      sockets.push(socket);
    });
  const smallCreate = () => mock.authed('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Small', categoryId: 1 }) });

  it.each(['Content-Length', 'chunked'])('answers 503 server_busy with Retry-After once slow uploads (%s) hold it all, and serves again once they are gone', async (framing) => {
    const port = Number(new URL(mock.url).port);
    // Each holds 1 MiB: together they hold the whole budget. One that came after a request still
    // holding a few bytes (the previous case's last create, on Redis a round trip long) is refused
    // (an answer on its socket): it is replaced until every one holds its MiB.
    let uploads = await Promise.all(Array.from({ length: BODIES_IN_FLIGHT_BYTES / MiB }, () => slowUpload(port, framing)));
    for (let refused = uploads; refused.length > 0; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      refused = uploads.filter((socket) => socket.bytesRead > 0);
      for (const socket of refused) socket.destroy();
      uploads = [...uploads.filter((socket) => socket.bytesRead === 0), ...(await Promise.all(refused.map(() => slowUpload(port, framing))))];
    }
    // The uploads reach the body limit once node has read their headers, in no order the test can see: ask until one is refused.
    // Asked until a deadline, not a number of times: on a loaded machine (or with the Redis store, where each create is a round trip) 200 creates can come before node has read every upload's headers.
    const until = Date.now() + 10_000;
    let busy = await smallCreate();
    while (busy.status !== 503 && Date.now() < until) busy = await smallCreate();
    expect(busy.status).toBe(503);
    expect(busy.json).toMatchObject({ code: 'server_busy', status: 503 });
    expect(busy.headers.get('retry-after')).toBe('1');
    // GET requests have no body: they are still served.
    expect((await mock.authed('/pets')).status).toBe(200);

    for (const socket of sockets.splice(0)) socket.destroy();
    const again = Date.now() + 10_000;
    let served = await smallCreate();
    while (served.status !== 201 && Date.now() < again) served = await smallCreate();
    expect(served.status).toBe(201);
    expect(mock.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });
});
