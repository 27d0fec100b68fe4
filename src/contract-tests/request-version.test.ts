import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'vitest';
import { curlLine } from '../verdict/curl-line.js';
import { headerForm } from './generate/variations.js';
import { createHttpClient } from './http-client.js';
import { writeFields } from './request-form.js';

/**
 * The request forms that change more than a field's spelling, over real
 * HTTP on a port of 127.0.0.1: HTTP/1.0 on a socket of its own, Expect and
 * the body's media type written as the form says, and a request without
 * the key sent on a connection that has just carried the key, replayed
 * with `curl --next`.
 */
const KEY = 'request-version-test-key';

interface Seen {
  version: string;
  method: string;
  fields: IncomingMessage['headers'];
  socket: number;
  body: string;
}

async function recordingServer() {
  const seen: Seen[] = [];
  const sockets = new WeakMap<object, number>();
  let made = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (!sockets.has(request.socket)) sockets.set(request.socket, made++);
      seen.push({ version: request.httpVersion, method: request.method ?? '', fields: request.headers, socket: sockets.get(request.socket) as number, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { seen, url, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const client = (url: string) => createHttpClient({ baseUrl: url, apiKey: KEY, timeoutMs: 5_000, maxBodyBytes: 1 << 20, retries: 0 });

describe('a request in HTTP/1.0', () => {
  it('reaches the server as 1.0 with its Host and a body of known length, and its curl line says -0', async ({ expect }) => {
    const server = await recordingServer();
    try {
      const form = headerForm({ httpVersion: 1, transfer: 1 });
      const exchange = await client(server.url)({ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}', form });
      expect(exchange.response?.status).toBe(200);
      expect(server.seen[0]).toMatchObject({ version: '1.0', method: 'POST', body: '{"name":"a"}' });
      expect(server.seen[0]?.fields.host).toMatch(/^127\.0\.0\.1:\d+$/);
      // No chunked transfer coding in 1.0: the body goes with its length.
      expect(server.seen[0]?.fields['transfer-encoding']).toBeUndefined();
      expect(curlLine(exchange.request)).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets' -0 /);
    } finally {
      await server.close();
    }
  });
});

describe('the body and its fields', () => {
  it('go with the form\'s media type and Expect: 100-continue', ({ expect }) => {
    const form = headerForm({ simpleBody: 1, expect: 1 });
    if (!form) throw new Error('no form');
    const { headers } = writeFields({ 'content-type': 'application/json' }, form, true);
    expect(headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(headers.expect).toBe('100-continue');
  });

  it('carry the fields a browser adds', ({ expect }) => {
    expect(headerForm({ browser: 1 })?.extra).toMatchObject({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost' });
    expect(headerForm({ browser: 2 })?.extra).toEqual({ 'x-requested-with': 'XMLHttpRequest' });
  });
});

describe('a request without the key', () => {
  it('never shares a connection with one that carried the key, unless sent after-key, whose curl line sends both on one connection', async ({ expect }) => {
    const server = await recordingServer();
    try {
      const send = client(server.url);
      await send({ method: 'GET', path: '/pets' });
      await send({ method: 'GET', path: '/pets', auth: 'none' });
      expect(server.seen[1]?.socket).not.toBe(server.seen[0]?.socket);
      const after = await send({ method: 'GET', path: '/pets', auth: 'none', connection: 'after-key' });
      const [keyed, keyless] = server.seen.slice(2);
      expect(keyed?.fields.authorization).toBe(`Bearer ${KEY}`);
      expect(keyless?.fields.authorization).toBeUndefined();
      expect(keyless?.socket).toBe(keyed?.socket);
      const line = curlLine(after.request);
      expect(line).toMatch(/^curl -sS -i 'http:[^']*\/v1\/pets' .*-H 'authorization: Bearer <API key>' --next -sS -i 'http:[^']*\/v1\/pets'/);
      expect(line).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
