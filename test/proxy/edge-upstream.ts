import { afterAll, beforeAll } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A tiny upstream of raw node:http for the proxy's edge cases: answers the
 * contract never shows (text, 3xx, chunked, empty), one that dies half-way
 * through its body, one that never answers, and one that echoes what it got
 * (headers as sent, the body's hash), so a test sees the request the proxy
 * sent. It sends no Date of its own, so any Date a client sees was added.
 */
export interface EdgeUpstream {
  url: string;
  port: number;
  /** Requests it has seen, as `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

export const LONG_NAME = 'Ä'.repeat(10_000);

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: Buffer) => void> = {
  '/v1/echo': (req, res, body) => {
    const text = JSON.stringify({ method: req.method, url: req.url, rawHeaders: req.rawHeaders, bodySha: sha(body), bodyBytes: body.length });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  },
  '/v1/pets/non-ascii': (_req, res) => json(res, 200, { id: 1, name: 'Zoë 🐕 Ünïcødé «»', categoryId: 1 }),
  '/v1/pets/long': (_req, res) => json(res, 200, { id: 2, name: LONG_NAME, categoryId: 1 }),
  // Content-Types a parser may choke on: an empty parameter and an empty list element (RFC 9110 allows both), a parameter without its value (it does not).
  '/v1/pets/empty-parameter': (_req, res) => res.writeHead(200, { 'content-type': 'application/json;' }).end('{"id":3,"name":"Semi","categoryId":1}'),
  '/v1/pets/empty-element': (_req, res) => res.writeHead(200, { 'content-type': 'application/json, ' }).end('{"id":4,"name":"Comma","categoryId":1}'),
  '/v1/pets/bare-parameter': (_req, res) => res.writeHead(200, { 'content-type': 'application/json; charset' }).end('{"id":5,"name":"Bare","categoryId":1}'),
  // A segment whose octets are no UTF-8 (an overlong "/"), answered as if it named animal 1.
  '/v1/pets/1%C0%AF': (_req, res) => json(res, 200, { id: 1, name: 'Overlong', categoryId: 1 }),
  '/v1/empty': (_req, res) => res.writeHead(204, { 'x-upstream': 'empty' }).end(),
  '/v1/text': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 6 }).end('hello\n'),
  '/v1/redirect': (_req, res) => res.writeHead(302, { location: '/v1/elsewhere', 'content-length': 0 }).end(),
  // A protocol switch nobody asked for: the socket is the target's to drop.
  '/v1/pets/switch': (_req, res) => {
    res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n');
  },
  // Three digits node sends and reads, past the 599 the platform's Response holds.
  '/v1/pets/odd-status': (_req, res) => res.writeHead(999, 'Odd', { 'content-type': 'application/json', 'content-length': 2 }).end('{}'),
  '/v1/chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
    res.write('[{"id":1,');
    setTimeout(() => res.end('"name":"Rex","categoryId":1}]'), 30);
  },
  '/v1/dies': (_req, res) => {
    // Chunked: a proxy that ended its own answer here would send a cut body framed as whole.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[{"id":1,"name":"half');
    setTimeout(() => res.socket?.destroy(), 50);
  },
  '/v1/hangs': () => undefined,
  // Past the proxy's 1 MiB check cap.
  '/v1/huge': (_req, res) => {
    const text = `"${'z'.repeat(3 * 1024 * 1024)}"`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length }).end(text);
  },
  '/v1/pets/many': (_req, res) => json(res, 200, Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `P${i}`, categoryId: 1 }))),
  // The same request answered in turn with a whole page and with one whose animal's name is a number (a schema violation), as long.
  '/v1/pets': (_req, res) => json(res, 200, [{ id: 1, name: flips++ % 2 === 0 ? 'Rex' : 12345, categoryId: 1 }]),
};
let flips = 0;

export async function startEdgeUpstream(): Promise<EdgeUpstream> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    res.sendDate = false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const path = (req.url ?? '').split('?')[0] as string;
      // Any path ending in /echo echoes: /v1/pets/echo is a getPet the checks judge.
      const route = path.endsWith('/echo') ? routes['/v1/echo'] : routes[path];
      if (route) route(req, res, Buffer.concat(chunks));
      else json(res, 404, { code: 'not_found', message: 'no such path', status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

export const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** An edge upstream for a file's tests: started before them, closed after. */
export function useEdgeUpstream(): () => EdgeUpstream {
  let upstream: EdgeUpstream | undefined;
  beforeAll(async () => {
    upstream = await startEdgeUpstream();
  });
  afterAll(async () => upstream?.close());
  return () => upstream as EdgeUpstream;
}
