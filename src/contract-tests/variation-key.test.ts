import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { startApiServer, type AppFetch } from '../../test/support/contract-cli.js';
import { createResponseValidator } from '../document/response-validator.js';
import { spellUri } from './generate/uri-spelling.js';
import { runSuite } from './run-suite.js';
import { curlLine } from '../verdict/curl-line.js';

/**
 * The key on every variation, over real HTTP: a server whose key check reads
 * the raw request target while its router decodes it lets `/v1/%70ets` in
 * without the key. The failure shows the plain request and the smallest
 * spelling that gets in, both as curl lines that, pasted into bash, get
 * 401 and 200; the URI grammar's spellings all decode to the same path.
 */
const KEY = 'variation-key-test-key';
const validator = createResponseValidator();
const run = promisify(execFile);

/** The mock, except that a path with a percent sign skips the key check (it is not on the check's list of paths). */
const letsEncodedPathsIn = (fetch: AppFetch): AppFetch => (request) => {
  const raw = request.url.replace(/^[a-z]+:\/\/[^/]*/, '').replace(/\?.*$/, '');
  if (!raw.includes('%')) return fetch(request);
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${KEY}`);
  return fetch(new Request(request.url, { method: request.method, headers }));
};

describe('a server that lets a percent-encoded path in without the key', () => {
  it('fails vary-list-pets with the plain request and the shrunk spelling as curl lines that replay both answers', { timeout: 60_000 }, async ({ expect }) => {
    const server = await startApiServer({ apiKey: KEY, wrap: letsEncodedPathsIn });
    try {
      const outcome = await runSuite({ baseUrl: server.url, apiKey: KEY, seed: 5, only: ['vary-list-pets'], validator: await validator });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const result = outcome.report.results.find((r) => r.id === 'vary-list-pets');
      const finding = result?.findings.find((f) => f.level === 'error');
      expect(finding?.message).toMatch(/^answered 200 to this spelling of the request with (no Authorization header|a wrong key), where the request as the harness always writes it got 401$/);
      expect(finding?.expected).toMatch(/^401 \(Authentication: /);
      // Shrunk: no other dimension is left than the path's spelling.
      expect(finding?.reproduce?.case).toMatch(/^listPets with \{[^}]*\}, the path and query spelled another way RFC 3986 allows \(as the curl line shows\)$/);
      const lines = (finding?.reproduce?.curl ?? '').split('\n').filter((line) => !/<API key>/.test(line));
      const plain = lines.find((line) => /\/v1\/pets[?']/.test(line));
      // The base's segment too is spelled (`/%761/pets`): the whole path from the origin.
      const spelled = lines.find((line) => /127\.0\.0\.1:\d+\/[^']*%/.test(line));
      expect(plain).toBeDefined();
      expect(spelled).toBeDefined();
      const status = async (line: string) => (await run('bash', ['-c', line.replace(/'http:\/\/127\.0\.0\.1:\d+/, `'http://127.0.0.1:${server.port}`)], { encoding: 'utf8' })).stdout.slice(0, 12);
      expect(await status(plain as string)).toBe('HTTP/1.1 401');
      expect(await status(spelled as string)).toBe('HTTP/1.1 200');
    } finally {
      await server.close();
    }
  });
});

describe('every URI spelling', () => {
  it('decodes to the same path and query, dot segments removed', ({ expect }) => {
    const segment = fc.stringMatching(/^[A-Za-z0-9\-._~]{1,8}$/).filter((s) => s !== '.' && s !== '..');
    const text = fc.stringMatching(/^[A-Za-z0-9\-._~]{0,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(segment, text), { maxLength: 2 }), fc.array(fc.nat(5), { maxLength: 40 }), (segments, query, spelling) => {
        const path = `/${segments.join('/')}`;
        const spelled = new URL(spellUri(path, query, spelling), 'http://h');
        expect(decodeURIComponent(spelled.pathname)).toBe(path);
        expect([...spelled.searchParams]).toEqual(query);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('a curl line of a path with dot segments', () => {
  it('reaches the server with its dot segments, as the harness sent it', async ({ expect }) => {
    const server = createServer((req, res) => res.end(req.url)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x/../%70ets/./`;
      const { stdout } = await run('bash', ['-c', curlLine({ method: 'GET', url, headers: {} }).replace(' -i ', ' ')], { encoding: 'utf8' });
      expect(stdout).toBe('/v1/x/../%70ets/./');
    } finally {
      server.close();
    }
  });
});
