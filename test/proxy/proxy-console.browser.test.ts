import { describe, expect, it } from 'vitest';
import { checkStatement } from '../../src/verdict/exchange-check-ids.js';
import { openConsole, useBrowser } from '../support/console-page.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMock, tmpDir, useBuiltCli } from '../support/built-cli.js';
import { startEdgeUpstream, useEdgeUpstream } from './edge-upstream.js';
import { rawRequest } from './raw-get.js';

/**
 * The console in a real headless Chromium, in front of a mock in proxy
 * mode: a violation shows in its panel the moment the target breaks the
 * contract, with a count, and the filter narrows the list; the panel is
 * in sight at 1280×800 without scrolling. The journal's rows say the
 * target answered them (or the mock in its place), a row whose answer
 * broke the contract is marked, and its details say what it broke.
 * Without `--proxy` the panel is not shown.
 */
useBuiltCli();
const browser = useBrowser();
/** Whether an element's text shows whole in its box (run in the page: these files have no DOM types). */
const whole = (node: { scrollWidth: number; clientWidth: number }): boolean => node.scrollWidth <= node.clientWidth + 1;
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

  it('is in sight at 1280×800 without scrolling, above the panels a proxy does not need first', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    const { page } = browser;
    expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
    await openConsole(page, new URL(mock.url).origin, { live: false });
    // Statements enough to fill the list: its own scroll bounds it.
    const key = { authorization: 'Bearer client-key-of-staging' };
    for (const path of ['/text', '/pets/many', '/pets?limit=1', '/pets?limit=1', '/redirect']) await rawRequest(`${mock.url}${path}`, { headers: key });
    await page.locator('#violations .violation', { hasText: checkStatement('exchange-media-type') }).waitFor();
    await page.locator('#scenarios [data-scenario="flaky"]').waitFor();
    const box = await page.locator('#violations-section').boundingBox();
    expect(box).not.toBeNull();
    const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
    expect({ top: y >= 0, left: x >= 0, bottom: y + height <= 800, right: x + width <= 1280 }).toEqual({ top: true, left: true, bottom: true, right: true });
    // Above the scenario cards, which a proxied exchange does not need first.
    const cards = (await page.locator('#scenarios').boundingBox()) as { y: number };
    expect(cards.y).toBeGreaterThan(y + height);
  });

  it('says a proxied row was answered by the target, marks one that broke the contract, and shows what it broke in its details', async () => {
    const mock = await startMock(['--proxy', upstream().url]);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin);
    await page.locator('#violations-section').waitFor();
    const key = { authorization: 'Bearer client-key-of-staging' };
    // A JSON page at a path the document does not have breaks nothing; text/plain breaks the media type.
    await rawRequest(`${mock.url}/chunked`, { headers: key });
    await rawRequest(`${mock.url}/text`, { headers: key });
    const clean = page.locator('#entries .entry', { hasText: '/v1/chunked' });
    const broken = page.locator('#entries .entry', { hasText: '/v1/text' });
    await broken.waitFor();
    expect([await clean.locator('.stub').innerText(), await broken.locator('.stub').innerText()]).toEqual(['target', 'target']);
    expect(await clean.locator('.mark').count()).toBe(0);
    expect(await broken.locator('.mark').isVisible()).toBe(true);
    expect(await broken.locator('.mark').innerText()).toContain('⚠ 1');
    // Read out too: the row's accessible name says it, the sign alone would not.
    expect(await page.getByRole('button', { name: /1 contract violation: .*\/v1\/text/ }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /contract violation/ }).count()).toBe(1);

    await broken.click();
    const details = page.locator('#details');
    await details.locator('.entry-violations li').waitFor();
    const text = await details.innerText();
    expect(text).toContain(`Answered by the target (${upstream().url}): its answer was passed on as sent.`);
    expect(text).not.toContain('catalogue');
    expect(await details.locator('.entry-violations code').allInnerTexts()).toEqual(['exchange-media-type']);
    expect(await details.locator('.entry-violations .statement').innerText()).toBe(checkStatement('exchange-media-type'));
    expect(await details.locator('.entry-violations .seen').innerText()).toMatch(/^Seen: .*text\/plain/);
    expect(text).not.toContain('client-key-of-staging');

    await clean.click();
    await details.getByText('The checks found nothing wrong with this answer.').waitFor();
    expect(await details.locator('.entry-violations').count()).toBe(0);
  });

  it('with --proxy-fallback mock, says the mock answered in the target\'s place, and why', async () => {
    const away = await startEdgeUpstream();
    await away.close();
    const mock = await startMock(['--proxy', away.url, '--proxy-fallback', 'mock']);
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { key: 'animal-store-dev-key' });
    await page.locator('#violations-section').waitFor();
    await rawRequest(`${mock.url}/pets/1`, { headers: { authorization: 'Bearer animal-store-dev-key' } });
    const row = page.locator('#entries .entry', { hasText: '/v1/pets/1' });
    await row.waitFor();
    expect(await row.locator('.stub').innerText()).toBe('mock (fallback)');
    // Whole in its column, the details pane closed or open.
    expect(await row.locator('.stub').evaluate(whole)).toBe(true);
    await row.click();
    await page.locator('#details', { hasText: `Answered by the mock, from its own catalogue: the target (${away.url}) could not be reached` }).waitFor();
    expect(await row.locator('.stub').evaluate(whole)).toBe(true);
    expect(await page.locator('#details .entry-violations, #details .checked').count()).toBe(0);
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
