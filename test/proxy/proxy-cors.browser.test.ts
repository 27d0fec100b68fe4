import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listen, startMock, useBuiltCli } from '../support/built-cli.js';
import { useBrowser } from '../support/console-page.js';
import { startNoCorsUpstream, type NoCorsUpstream } from './no-cors-upstream.js';

/**
 * A browser app on another origin, in a real headless Chromium, using the
 * mock's proxy in front of a staging that sends no CORS fields: its
 * preflighted requests (Authorization, a JSON body) are answered, as the
 * mock answers its own.
 */
useBuiltCli();
const browser = useBrowser();
const KEY = 'staging-key-for-the-app';
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** The app's own origin: a plain page served on another port. */
async function appOrigin(): Promise<string> {
  const server = createServer((_req, res) => res.end('<!doctype html><title>app</title><h1>app</h1>'));
  const port = await listen(server);
  closing.push(() => {
    server.closeAllConnections();
    return closeServer(server);
  });
  return `http://127.0.0.1:${port}`;
}

async function noCorsTarget(): Promise<NoCorsUpstream> {
  const upstream = await startNoCorsUpstream(KEY);
  closing.push(() => upstream.close());
  return upstream;
}

/** listPets, then createPet, from the page's own script, as the app would; each answer's status and body, or the error fetch threw. */
const USE_THE_API = `async ({ base, key, credentials }) => {
  const call = async (path, init) => {
    try {
      const answer = await fetch(base + path, { ...init, credentials, headers: { ...init.headers, authorization: 'Bearer ' + key } });
      return { status: answer.status, body: await answer.json(), location: answer.headers.get('location') };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const listed = await call('/pets?limit=5', { headers: {} });
  const created = await call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Pixel', categoryId: 3 }) });
  return { listed, created };
}`;

describe('a browser app through the proxy, staging sending no CORS', () => {
  it('any origin by default: listPets and createPet succeed from a page on another origin', async () => {
    const [target, app] = await Promise.all([noCorsTarget(), appOrigin()]);
    const mock = await startMock(['--proxy', target.url, '--quiet']);
    const { page } = browser;
    await page.goto(app);
    const seen = await page.evaluate(`(${USE_THE_API})(${JSON.stringify({ base: mock.url, key: KEY, credentials: 'same-origin' })})`);
    expect(seen).toEqual({
      listed: { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }], location: null },
      created: { status: 201, body: { id: 2, name: 'Pixel', categoryId: 3 }, location: null },
    });
  });

  it('with --cors-origin naming the app, credentialed requests succeed too', async () => {
    const [target, app] = await Promise.all([noCorsTarget(), appOrigin()]);
    const mock = await startMock(['--proxy', target.url, '--quiet', '--cors-origin', app]);
    const { page } = browser;
    await page.goto(app);
    const seen = (await page.evaluate(`(${USE_THE_API})(${JSON.stringify({ base: mock.url, key: KEY, credentials: 'include' })})`)) as Record<string, { status?: number }>;
    expect([seen.listed?.status, seen.created?.status]).toEqual([200, 201]);
  });
});
