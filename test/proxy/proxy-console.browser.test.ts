import { describe, expect, it } from 'vitest';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { openConsole, useBrowser } from '../support/console-page.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMock, tmpDir, useBuiltCli } from '../support/built-cli.js';
import { useEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * The console in a real headless Chromium, in front of a mock in proxy
 * mode: a violation shows in its panel the moment the target breaks the
 * contract, with a count, and the filter narrows the list. Without
 * `--proxy` the panel is not shown.
 */
useBuiltCli();
const browser = useBrowser();
const upstream = useEdgeUpstream();

describe('the console in proxy mode', () => {
  it('shows each violation as it comes (read every second), counted, and filters them', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { live: false });
    await page.locator('#violations-section').waitFor();
    expect(await page.locator('#violations-count').innerText()).toBe('0 violations of 0 statements');

    // The edge upstream answers a page whose animal's name is a number on every other call, and /text as text/plain.
    const key = { authorization: 'Bearer client-key-of-staging' };
    for (let i = 0; i < 4; i++) await rawRequest(`${mock.url}/pets?limit=1`, { headers: key });
    await page.locator('#violations .violation', { hasText: checkStatement('exchange-response-schema') }).waitFor({ timeout: 1500 });
    await rawRequest(`${mock.url}/text`, { headers: key });
    await page.locator('#violations .violation', { hasText: checkStatement('exchange-media-type') }).waitFor({ timeout: 1500 });
    expect(await page.locator('#violations-count').innerText()).toBe('3 violations of 2 statements');

    await page.fill('#violations-filter', 'media');
    expect(await page.locator('#violations .violation').count()).toBe(1);
    expect(await page.locator('#violations-count').innerText()).toBe('1 violation of 1 statement matching “media”');
    // The curl line never holds the client's key.
    expect(await page.locator('#violations').innerText()).not.toContain('client-key-of-staging');
  });

  it('is not shown without --proxy', async () => {
    const mock = await startMock([]);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { live: false });
    await page.locator('#health.health .pets').waitFor();
    expect(await page.locator('#violations-section').isHidden()).toBe(true);
  });

  it('with --record, stops the recording (which writes it) and starts it again from the page', async () => {
    const dir = join(tmpDir(), 'console-recording');
    const mock = await startMock(['--proxy', upstream().url, '--record', dir]);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { key: 'animal-store-dev-key', live: false });
    await page.locator('#recording-state', { hasText: `Recording into ${dir}` }).waitFor();
    await rawRequest(`${mock.url}/pets/long`, { headers: { authorization: 'Bearer client-key-of-staging' } });
    await page.click('#recording-toggle');
    await page.locator('#notice', { hasText: `Recording stopped and written to ${dir}` }).waitFor();
    await page.locator('#recording-state', { hasText: 'Stopped' }).waitFor();
    expect(await page.locator('#recording-state').innerText()).toContain('1 animals');
    expect(existsSync(join(dir, 'recorded.yaml'))).toBe(true);
    await page.click('#recording-toggle');
    await page.locator('#recording-state', { hasText: 'Recording into' }).waitFor();
  });

  it('without --record, the recording is not shown', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { live: false });
    await page.locator('#violations-section').waitFor();
    expect(await page.locator('#recording-section').isHidden()).toBe(true);
  });
});
