import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../shared/package-root.js';
import { rawRequest } from '../../../../test/support/raw-request.js';
import { expectRevalidation } from '../../../../test/support/revalidation.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/** The QA console's files under /__mock, over real HTTP: what is served, with which headers, and who may fetch it. */
const EVIL = 'http://evil.example';
const ADMIN_KEY = 'admin-secret-13';
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const TYPES: Record<string, string> = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html' };

/** The page's own references (src, href), resolved as a browser resolves them against /__mock/. */
const references = (html: string, base: string): string[] => [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map(([, ref]) => new URL(ref as string, base).href);

function expectPageHeaders(res: Response): void {
  expect(res.headers.get('content-security-policy')).toBe(CSP);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('cache-control')).toBe('no-cache');
}

describe('the console files, with no admin key', () => {
  const mock = useMock({ scenario: 'default' });
  const at = (path: string): string => `${new URL(mock.url).origin}${path}`;

  it('gives the page and each file it references a strong ETag, one per content, and answers a browser that holds it 304 without the file', async () => {
    const page = await expectRevalidation(at('/__mock/'));
    const refs = references(await (await fetch(at('/__mock/'))).text(), at('/__mock/'));
    const tags = [page];
    for (const ref of refs) tags.push(await expectRevalidation(ref));
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('serves the page at /__mock/ with its security headers, and every file it references', async () => {
    const res = await fetch(at('/__mock/'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(res);
    const refs = references(await res.text(), res.url);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(new URL(ref).pathname).toMatch(/^\/__mock\/console\//);
      const file = await fetch(ref);
      expect([ref, file.status]).toEqual([ref, 200]);
      expect(file.headers.get('content-type')).toContain(TYPES[ref.split('.').pop() as string]);
      expectPageHeaders(file);
    }
  });

  it('serves every script the page imports (the ES modules import one another)', async () => {
    const shipped = readdirSync(join(packageRoot(), 'console')).filter((file) => file.endsWith('.js'));
    for (const file of shipped) {
      const res = await fetch(at(`/__mock/console/${file}`));
      const text = await res.text();
      expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, 'text/javascript; charset=utf-8']);
      for (const [, imported] of text.matchAll(/^import .* from '\.\/([^']+)';$/gm)) expect((await fetch(at(`/__mock/console/${imported}`))).status).toBe(200);
    }
  });

  it('redirects /__mock to /__mock/, so the page\'s relative references resolve under it', async () => {
    const res = await fetch(at('/__mock'), { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/__mock/');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(at('/__mock/console/console.css'), { method: 'HEAD' });
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/css; charset=utf-8', '']);
  });

  it.each(['nope.js', 'index.htm', 'console.js.map', 'tsconfig.json', '', 'a'.repeat(6000)])('answers an unknown file %#. with 404 route_not_found in the Error body, quoting at most a short part of its name', async (name) => {
    const res = await mock.adminAsIs(`/console/${name}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'route_not_found', message: expect.any(String), status: 404 });
    expect(res.json.message.length).toBeLessThan(400);
  });

  it.each([
    '/__mock/console/../../package.json',
    '/__mock/console/..%2F..%2Fpackage.json',
    '/__mock/console/%2e%2e/%2e%2e/package.json',
    '/__mock/console/..%5C..%5Cpackage.json',
    '/__mock/console/%2E%2E%2F%2E%2E%2Fsrc%2Fmock%2Fbin.ts',
    '/__mock/console//etc/passwd',
    '/__mock/console/console.js%00.html',
  ])('refuses a way out of the folder, %s, with a 404 Error body', async (target) => {
    const res = await rawRequest(at('/'), {}, 'GET', undefined, target);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'route_not_found', message: expect.any(String), status: 404 });
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s on the page and its files with 405 and Allow, even with a key', async (method) => {
    for (const path of ['/__mock', '/__mock/', '/__mock/console/console.js']) {
      const res = await rawRequest(at(path), { authorization: `Bearer ${TEST_KEY}` }, method);
      expect([path, res.status, res.json.code]).toEqual([path, 405, 'method_not_allowed']);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('refuses a foreign Origin (403 origin_not_allowed) and a rebound Host (403 host_not_allowed)', async () => {
    const origin = await rawRequest(at('/__mock/'), { origin: EVIL });
    expect([origin.status, origin.json.code]).toEqual([403, 'origin_not_allowed']);
    const host = await rawRequest(at('/__mock/console/console.js'), { host: `evil.example:${mock.port}` });
    expect([host.status, host.json.code]).toEqual([403, 'host_not_allowed']);
    expect((await fetch(at('/__mock/'), { headers: { origin: new URL(mock.url).origin } })).status).toBe(200);
  });

  it('records no journal entry for the console\'s files, in any journal', async () => {
    const before = [(await mock.admin('/journal')).json.entries.length, (await mock.admin('/journal/anonymous')).json.entries.length];
    for (const path of ['/__mock', '/__mock/', '/__mock/console/console.js', '/__mock/console/nope.js']) await fetch(at(path), { redirect: 'manual' });
    expect([(await mock.admin('/journal')).json.entries.length, (await mock.admin('/journal/anonymous')).json.entries.length]).toEqual(before);
  });
});

describe('the console files with --admin-key', () => {
  const mock = useMock({ scenario: 'default', adminKey: ADMIN_KEY });
  const at = (path: string): string => `${new URL(mock.url).origin}${path}`;

  it('serves the page and its files without the key, which a browser\'s navigation cannot send', async () => {
    expect((await fetch(at('/__mock/'))).status).toBe(200);
    expect((await fetch(at('/__mock/console/console.js'))).status).toBe(200);
  });

  it('still needs the key for every admin route the page calls', async () => {
    for (const path of ['/health', '/scenarios', '/sessions', '/journal']) {
      const res = await mock.adminAsIs(path);
      expect([path, res.status, res.json.code]).toEqual([path, 401, 'unauthorized']);
    }
    expect((await mock.adminAsIs('/health', { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
  });

  it('still refuses a foreign Origin', async () => {
    const res = await rawRequest(at('/__mock/'), { origin: EVIL });
    expect([res.status, res.json.code]).toEqual([403, 'origin_not_allowed']);
  });
});
