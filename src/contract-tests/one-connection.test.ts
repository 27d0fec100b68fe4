import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendOnOneConnection } from './one-connection.js';

/**
 * A request sent on a connection of its own, against raw TCP servers that
 * answer byte for byte as written here: what came past an answer's header
 * block, and whether the connection answered a second request.
 */
const LIMITS = { timeoutMs: 2000, maxBodyBytes: 1 << 20 };
const HEAD_BLOCK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n';
const NEXT = 'HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n';
let server: Server | undefined;

/** A server that answers each connection's first request with `first` and any later one with `next` (or does `then` after the first). */
async function answering(first: string, { next = NEXT, then }: { next?: string; then?: (socket: Socket) => void } = {}): Promise<string> {
  server = createServer((socket) => {
    let requests = 0;
    let seen = '';
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      while (seen.includes('\r\n\r\n')) {
        seen = seen.slice(seen.indexOf('\r\n\r\n') + 4);
        requests += 1;
        if (requests === 1) {
          socket.write(first);
          then?.(socket);
        } else socket.write(next);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('sendOnOneConnection', () => {
  it('reads an answer to HEAD as ending with its header block, and the second answer on the same connection', async () => {
    const answer = await sendOnOneConnection(await answering(HEAD_BLOCK), 'HEAD', { accept: 'application/json' }, LIMITS);
    expect(answer).toMatchObject({ status: 200, body: '', afterward: { content: '', closes: false, next: 401 } });
  });

  it('shows content sent after the header block of an answer to HEAD', async () => {
    const answer = await sendOnOneConnection(await answering(`${HEAD_BLOCK}[]`), 'HEAD', {}, LIMITS);
    expect(answer.afterward).toEqual({ content: '[]', closes: false, next: 401 });
  });

  it('shows a connection closed after the answer, without Connection: close', async () => {
    const answer = await sendOnOneConnection(await answering(HEAD_BLOCK, { then: (socket) => socket.end() }), 'HEAD', {}, LIMITS);
    expect(answer.afterward).toMatchObject({ content: '', closes: false, broken: 'the server closed the connection' });
  });

  it('sends no second request after an answer that says Connection: close', async () => {
    const closing = 'HTTP/1.1 304 Not Modified\r\nconnection: close\r\n\r\n';
    const answer = await sendOnOneConnection(await answering(closing, { then: (socket) => socket.end() }), 'GET', { 'if-none-match': '"a"' }, LIMITS);
    expect(answer).toMatchObject({ status: 304, afterward: { content: '', closes: true } });
  });

  it('reads a chunked body, then the second answer', async () => {
    const chunked = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n[\r\n1\r\n]\r\n0\r\n\r\n';
    const answer = await sendOnOneConnection(await answering(chunked), 'GET', {}, LIMITS);
    expect(answer).toMatchObject({ status: 200, body: '[]', afterward: { content: '', next: 401 } });
  });

  it('shows content after a 304', async () => {
    const answer = await sendOnOneConnection(await answering('HTTP/1.1 304 Not Modified\r\netag: "a"\r\n\r\n[1]'), 'GET', { 'if-none-match': '"a"' }, LIMITS);
    expect(answer.afterward).toEqual({ content: '[1]', closes: false, next: 401 });
  });
});
