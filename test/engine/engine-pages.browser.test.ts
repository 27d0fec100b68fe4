import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/entries/fetch.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { openPage, type OpenPage } from '../support/browser.js';
import { closeServer, listen } from '../support/built-cli.js';
import { requireBuilt } from '../support/processes.js';

/**
 * The engine in Chromium, built as an app's bundler builds it (esbuild,
 * for the browser, from the package's built ESM): a page whose service
 * worker answers through MSW's setupWorker, and a Storybook-like page whose
 * stories each keep their own animals. The pages are served by a plain
 * node:http server, which must never see an API request.
 */
const ROOT = packageRoot();
const PAGES = join(ROOT, 'test', 'engine', 'pages');
const files = new Map<string, { type: string; body: Uint8Array }>();
const seenPaths: string[] = [];
let server: Server;
let origin: string;
let browser: OpenPage;

async function bundle(entry: string): Promise<Uint8Array> {
  const out = await build({ entryPoints: [join(PAGES, entry)], bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, logLevel: 'silent' });
  return out.outputFiles[0]!.contents;
}

const page = (script: string): Uint8Array => new TextEncoder().encode(`<!doctype html><html><head><meta charset="utf-8"><title>engine</title></head><body><script type="module" src="/${script}"></script></body></html>`);

beforeAll(async () => {
  requireBuilt(join(ROOT, 'dist', 'src', 'entries', 'msw.js'));
  const js = 'text/javascript';
  files.set('/worker.js', { type: js, body: await bundle('worker-page.js') });
  files.set('/stories.js', { type: js, body: await bundle('stories-page.js') });
  files.set('/worker.html', { type: 'text/html', body: page('worker.js') });
  files.set('/stories.html', { type: 'text/html', body: page('stories.js') });
  files.set('/mockServiceWorker.js', { type: js, body: readFileSync(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js')) });
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    seenPaths.push(path);
    const file = files.get(path);
    response.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain' }).end(file?.body ?? 'not here');
  });
  origin = `http://127.0.0.1:${await listen(server)}`;
  browser = await openPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (server) await closeServer(server);
});

const ready = async (on: Page, path: string): Promise<void> => {
  await on.goto(origin + path);
  await on.waitForSelector('body[data-ready="yes"]', { state: 'attached', timeout: 20_000 });
};

type Api = (path: string, init?: RequestInit) => Promise<{ status: number; text: string }>;
const call = (on: Page, path: string, init?: RequestInit) => on.evaluate(([p, i]) => (globalThis as unknown as { api: Api }).api(p as string, i as RequestInit), [path, init] as const);

describe('the engine in Chromium', () => {
  it('answers an app through its service worker: state across calls, the Error bodies, reset', async () => {
    await ready(browser.page, '/worker.html');
    expect((await call(browser.page, '/v1/pets?limit=2')).status).toBe(200);
    const created = await call(browser.page, '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Biscuit","categoryId":2}' });
    expect([created.status, JSON.parse(created.text)]).toEqual([201, { id: 31, name: 'Biscuit', categoryId: 2 }]);
    expect(JSON.parse((await call(browser.page, '/v1/pets/31')).text)).toEqual({ id: 31, name: 'Biscuit', categoryId: 2 });
    const refused = await call(browser.page, '/v1/pets/abc');
    expect(JSON.parse(refused.text)).toEqual({ code: 'pet_not_found', message: 'No animal has the id abc.', status: 404 });
    await browser.page.evaluate(() => (globalThis as unknown as { reset: () => Promise<void> }).reset());
    expect((await call(browser.page, '/v1/pets/31')).status).toBe(404);
    // Every API call was answered in the page: the server behind it only served the files.
    expect(seenPaths.filter((path) => path.startsWith('/v1') || path.startsWith('/__mock'))).toEqual([]);
  });

  it('holds an int64 past 2^53 exactly: a 19-digit categoryId comes back digit for digit', async () => {
    await ready(browser.page, '/worker.html');
    const body = '{"name":"Big","categoryId":9223372036854775807}';
    const created = await call(browser.page, '/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(created.status).toBe(201);
    const id = /"id":(\d+)/.exec(created.text)?.[1];
    const read = await call(browser.page, `/v1/pets/${id}`);
    expect(read.text).toContain('"categoryId":9223372036854775807');
  });

  it('keeps each story to its own animals', async () => {
    await ready(browser.page, '/stories.html');
    const names = (id: string) => browser.page.$$eval(`#${id} li`, (items) => items.map((item) => item.textContent));
    const first = await names('catalogue-with-a-new-animal');
    expect(first).toHaveLength(31);
    expect(first).toContain('Only in the first story');
    expect(first).not.toContain('Only in the second story');
    expect(await names('a-shelter-of-two')).toEqual(['Pip', 'Moss', 'Only in the second story']);
    expect((await names('sold-out')).length).toBeGreaterThan(0);
    expect(await names('sold-out')).not.toContain('Only in the first story');
  });
});

describe('the engine behind Playwright routes', () => {
  it("answers a page's API calls from the test process, one engine per test", async () => {
    const mock = await createMock();
    // As docs/in-tests-and-the-browser.md shows it: every /v1 request of the page is answered by the engine.
    await browser.page.route('**/v1/**', async (route) => {
      const request = route.request();
      const answer = await mock.fetch(request.url(), { method: request.method(), headers: request.headers(), body: request.postDataBuffer() ?? undefined });
      await route.fulfill({ status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(await answer.arrayBuffer()) });
    });
    await browser.page.goto(`${origin}/stories.html`);
    const read = await browser.page.evaluate(async () => {
      const key = { authorization: 'Bearer animal-store-dev-key' };
      await fetch('https://api.example.test/v1/pets', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":"Routed","categoryId":1}' });
      const answer = await fetch('https://api.example.test/v1/pets/31', { headers: key });
      return { status: answer.status, body: await answer.json() };
    });
    expect(read).toEqual({ status: 200, body: { id: 31, name: 'Routed', categoryId: 1 } });
    await browser.page.unrouteAll();
    await mock.close();
  });
});
