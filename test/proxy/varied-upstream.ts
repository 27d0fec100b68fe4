import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * An upstream whose answer to `/v1/varied/N` is the Nth of a varied set,
 * decided by N alone (so a direct call and one through the proxy get the
 * same bytes): every status class with odd reason phrases, JSON, text,
 * binary and empty bodies, non-ASCII and 10,000-character names, a length
 * or chunks, repeated and oddly cased fields, redirects, and the request's
 * own method, query and body hash echoed. It sends no Date.
 */
export interface VariedUpstream {
  url: string;
  close(): Promise<void>;
}

const STATUSES = [200, 201, 202, 204, 206, 301, 302, 303, 307, 308, 400, 401, 403, 404, 409, 410, 418, 422, 429, 500, 502, 503] as const;
const NAMES = ['Zoë 🐕 Ünïcødé «»', 'Ä'.repeat(10_000), '', 'line\nbreak "quoted" \\ back', '日本語の名前', '\u0000\u001f control'];

function answer(n: number, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const status = STATUSES[n % STATUSES.length] as number;
  const reason = n % 7 === 0 ? `Reason ${n} ünïcode-free` : undefined;
  const headers: Array<[string, string | string[]]> = [['X-Case-Odd', `v${n}`], ['x-multi', [`a${n}`, `b${n}`]]];
  if (status >= 300 && status < 400) headers.push(['Location', `/v1/varied/${n + 1}?from=${n}`]);
  const kind = n % 5;
  const text =
    kind === 0 ? JSON.stringify({ n, name: NAMES[n % NAMES.length], method: req.method, url: req.url, bodySha: createHash('sha256').update(body).digest('hex') })
    : kind === 1 ? `plain text ${n} ${NAMES[n % NAMES.length]}\n`
    : kind === 2 ? ''
    : kind === 3 ? Buffer.from(Array.from({ length: (n * 37) % 3000 }, (_, i) => (i * n) % 256)).toString('latin1')
    : JSON.stringify(Array.from({ length: n % 40 }, (_, i) => ({ id: i, name: NAMES[(n + i) % NAMES.length], categoryId: i })));
  const bytes = kind === 3 ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
  const type = kind === 1 ? 'text/plain; charset=utf-8' : kind === 3 ? 'application/octet-stream' : 'application/json';
  const bodyless = status === 204 || req.method === 'HEAD';
  if (!bodyless && bytes.length > 0) headers.push(['Content-Type', type]);
  const chunked = n % 3 === 0 && !bodyless;
  if (!chunked && !bodyless) headers.push(['Content-Length', String(bytes.length)]);
  if (reason === undefined) res.writeHead(status, headers.flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value])));
  else res.writeHead(status, reason, headers.flatMap(([name, value]) => (Array.isArray(value) ? value.flatMap((v) => [name, v]) : [name, value])));
  if (bodyless) return void res.end();
  if (!chunked) return void res.end(bytes);
  // Chunks of varied sizes, a moment apart: a body whose length nobody knows in advance.
  const cut = Math.floor(bytes.length / 2);
  res.write(bytes.subarray(0, cut));
  setTimeout(() => res.end(bytes.subarray(cut)), n % 4);
}

export async function startVariedUpstream(): Promise<VariedUpstream> {
  const server = createServer((req, res) => {
    res.sendDate = false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(Number(/\/varied\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0), req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
