import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { get, request, createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { startMock, useBuiltCli } from '../support/built-cli.js';
import { sha } from './edge-upstream.js';
import { endToEndHeaders, rawRequest } from './raw-get.js';
import { startVariedUpstream } from './varied-upstream.js';

/**
 * Traffic through the proxy is never touched: a thousand varied exchanges
 * come back byte for byte as the target sent them, a 1 GiB answer streams
 * through with the mock's memory flat (a client that stops reading
 * included), and a target that answers without reading the request's body
 * gets its answer to the client.
 */
useBuiltCli();
const KEY = 'Bearer client-key-of-staging';
const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;

describe('traffic is never touched', () => {
  it('1,000 varied exchanges come back byte for byte: status, reason, fields, body', async () => {
    const upstream = await startVariedUpstream();
    closing.push(() => upstream.close());
    const mock = await startMock(['--proxy', upstream.url, '--quiet']);
    const exchange = async (n: number): Promise<void> => {
      const method = METHODS[n % METHODS.length] as string;
      const path = `/varied/${n}?q=${encodeURIComponent(`é ${n}`)}&n=${n}&empty=`;
      const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? Buffer.from(`{"n":${n},"name":"${'ü'.repeat(n % 50)}"}`) : undefined;
      const headers = { authorization: KEY, 'X-Custom-Case': `v${n}`, ...(body ? { 'content-type': 'application/json' } : {}) };
      const direct = await rawRequest(`${upstream.url}${path}`, { method, headers, body });
      const proxied = await rawRequest(`${mock.url}${path}`, { method, headers, body });
      const seen = { status: proxied.status, reason: proxied.statusMessage, headers: endToEndHeaders(proxied.rawHeaders), body: sha(proxied.body) };
      expect(seen, `${method} ${path}`).toEqual({ status: direct.status, reason: direct.statusMessage, headers: endToEndHeaders(direct.rawHeaders), body: sha(direct.body) });
    };
    for (let start = 0; start < 1000; start += 10) await Promise.all(Array.from({ length: 10 }, (_, i) => exchange(start + i)));
  }, 120_000);

  it('a 1 GiB answer streams through, the mock\'s memory flat, also while the client stops reading', async () => {
    const GiB = 1024 ** 3;
    const CHUNK = 64 * 1024;
    let sent = '';
    const target = createServer((_req, res) => {
      res.sendDate = false;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': GiB });
      const hash = createHash('sha256');
      let written = 0;
      const more = (): void => {
        while (written < GiB) {
          const chunk = Buffer.alloc(CHUNK, written / CHUNK);
          hash.update(chunk);
          written += CHUNK;
          if (written === GiB) {
            sent = hash.digest('hex');
            res.end(chunk);
            return;
          }
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    const mock = await startMock(['--proxy', await listen(target), '--quiet']);
    const rss = (): number => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${mock.child.pid}/status`, 'utf8'))?.[1]) * 1024;
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
    const received = await new Promise<{ bytes: number; sha: string }>((resolve, reject) => {
      get(`${mock.url}/gib`, { headers: { authorization: KEY } }, (answer) => {
        const hash = createHash('sha256');
        let bytes = 0;
        let paused = false;
        answer.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          // Half-way, the client stops reading for 1.5 s: the target must be held back, not buffered.
          if (!paused && bytes >= GiB / 2) {
            paused = true;
            answer.pause();
            setTimeout(() => answer.resume(), 1500);
          }
        });
        answer.on('end', () => resolve({ bytes, sha: hash.digest('hex') }));
        answer.on('error', reject);
      }).on('error', reject);
    });
    clearInterval(sampler);
    expect(received).toEqual({ bytes: GiB, sha: sent });
    // The check's copy (1 MiB) and the streams' buffers: far from the body's size.
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    const journal = (await (await fetch(`${new URL(mock.url).origin}/__mock/journal`)).json()) as { entries: Array<Record<string, unknown>> };
    expect(journal.entries.at(-1)).toMatchObject({ status: 200, upstream: 'answered', unchecked: 'too large' });
  }, 180_000);

  it('a target that answers a 50 MiB upload without reading it: its answer reaches the client, and the mock goes on', async () => {
    const refusal = '{"code":"payload_too_large","message":"not read","status":413}';
    const target = createServer((_req, res) => {
      res.sendDate = false;
      // Never reads the body: answers at once, and leaves the connection as it is. (One that also closed it at once
      // would make the kernel discard its own answer with the reset the unread bytes cause, for the proxy as for any
      // client: that is why servers linger before they close.)
      res.writeHead(413, { 'content-type': 'application/json', 'content-length': refusal.length }).end(refusal);
    });
    const mock = await startMock(['--proxy', await listen(target), '--quiet']);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const out = request(`${mock.url}/pets`, { method: 'POST', headers: { authorization: KEY, 'content-type': 'application/json', 'content-length': 50 * 1024 * 1024 } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      // The upload may be cut once the answer is in: that is the target's choice, not an error of the answer.
      out.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let left = 50;
      const write = (): void => {
        while (left > 0) {
          left--;
          if (!out.write(chunk)) return void out.once('drain', write);
        }
        out.end();
      };
      write();
    });
    expect(answer).toEqual({ status: 413, body: refusal });
    expect((await rawRequest(`${mock.url}/anything`, { headers: { authorization: KEY } })).status).toBe(413);
  }, 60_000);
});
