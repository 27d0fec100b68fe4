import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPage, screenshot, type OpenPage } from '../../../../test/support/browser.js';
import { pausableProxy } from '../../../../test/support/pausable-proxy.js';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/**
 * The QA console (issue 13) in a real headless Chromium, against a real
 * mock on a free port: each test drives the page as QA would, and checks
 * what the mock did through its own HTTP API.
 */
const ADMIN_KEY = 'admin-secret-console';
const run = promisify(execFile);

/** A fresh browser per test: its own sessionStorage (the key, the chosen session). */
function useBrowser(): { readonly page: Page } {
  let opened: OpenPage | undefined;
  const dialogs: string[] = [];
  beforeEach(async () => {
    opened = await openPage();
    // Fail within the test's own time, saying which element never came.
    opened.page.setDefaultTimeout(5000);
    // No server text may ever run as script (the XSS test): any dialog fails the test that opened it.
    opened.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterEach(async () => {
    await opened?.close();
    expect(dialogs, 'dialogs opened by the page').toEqual([]);
  });
  return {
    get page(): Page {
      if (!opened) throw new Error('no page yet');
      return opened.page;
    },
  };
}

/** Opens the console, gives it a key and (optionally) a session, and waits until its journal is live. */
async function openConsole(page: Page, origin: string, { key, session, live = true }: { key?: string; session?: string; live?: boolean } = {}): Promise<void> {
  await page.goto(`${origin}/__mock/`);
  if (key !== undefined) {
    await page.fill('#key', key);
    await page.click('#key-form button[type=submit]');
  }
  if (session !== undefined) {
    await page.fill('#session-id', session);
    await page.click('#session-form button[type=submit]');
    await page.locator('#health', { hasText: `session ${session}` }).waitFor();
  }
  // A session not running yet has no journal to follow: the page waits for its first request.
  if (live) await page.locator('#stream-state.live, #stream-state:has-text("Waiting for session")').first().waitFor();
}

/** The statuses in the journal's rows, newest first. */
const rowStatuses = (page: Page): Promise<string[]> => page.locator('#entries .entry .status').allInnerTexts();

describe('the QA console, without an admin key', () => {
  const mock = useMock({ scenario: 'default' });
  const browser = useBrowser();
  const origin = (): string => new URL(mock.url).origin;

  it('activates flaky from the page; the next API requests answer from it, and the live journal shows every third failing', async () => {
    const { page } = browser;
    const session = 'qa-flaky';
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.click('button[aria-label="Activate flaky"]');
    await page.locator('#notice', { hasText: 'flaky is active' }).waitFor();
    expect((await mock.health({ 'x-mock-session': session })).scenario).toBe('flaky');

    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await mock.authed('/pets?limit=2', { headers: { 'x-mock-session': session } })).status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(2);
    expect(statuses.map((status, i) => (status === 503) === ((i + 1) % 3 === 0))).toEqual(statuses.map(() => true));
    await page.locator('#entries .entry').nth(5).waitFor();
    expect(await rowStatuses(page)).toEqual(statuses.map(String).reverse());

    // A journal as QA would see it, for the README's picture: other operations, a 404, a create.
    const more: Array<[string, RequestInit?]> = [
      ['/pets/1'],
      ['/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Biscuit', categoryId: 2, status: 'available' }) }],
      ['/pets/99999'],
      ['/pets?status=sold&limit=3'],
      ['/pets/2'],
      ['/pets?limit=5'],
    ];
    for (const [path, init = {}] of more) await mock.authed(path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-mock-session': session } });
    await page.locator('#entries .entry').nth(statuses.length + more.length - 1).waitFor();
    await page.locator('#entries .entry.s5xx').first().click();
    await page.locator('#details', { hasText: 'every-third-request' }).waitFor();
    await screenshot(page, 'console');
  });

  it('shows a request made with curl in the open console\'s live journal within a second', async () => {
    const { page } = browser;
    await openConsole(page, origin());
    const probe = `curl-${process.pid}-${Date.now()}`;
    await run('curl', ['-s', '-o', '/dev/null', '-H', `Authorization: Bearer ${TEST_KEY}`, `${mock.url}/pets?limit=1&probe=${probe}`]);
    await page.locator('#entries .entry .path', { hasText: probe }).waitFor({ timeout: 1000 });
  });

  it('shows a path, a header and a body holding HTML as text: nothing the mock sends runs', async () => {
    const { page } = browser;
    const session = 'qa-xss';
    await openConsole(page, origin(), { session });
    const attack = '<img src=x onerror=alert(1)>';
    const res = await mock.authed(`/pets/${attack}`, { headers: { 'x-mock-session': session, 'x-note': '<img src=x onerror=alert(2)>' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const row = page.locator('#entries .entry', { hasText: attack });
    await row.waitFor();
    expect(await row.locator('.path').innerText()).toBe(`/v1/pets/${attack}`);
    await row.click();
    await page.locator('#details h3', { hasText: attack }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    // The Error message quotes the id back: shown as text too.
    expect(await page.locator('#details').innerText()).toContain(attack);
  });

  it('keeps the rows in view still while new ones arrive above, once the user has scrolled down', async () => {
    const { page } = browser;
    const session = 'qa-scroll';
    const headers = { 'x-mock-session': session };
    for (let i = 0; i < 40; i += 1) await mock.authed(`/pets?limit=1&n=${i}`, { headers });
    await openConsole(page, origin(), { session });
    await page.locator('#entries .entry', { hasText: 'n=0' }).waitFor();
    await page.locator('#entries').evaluate((list) => list.scrollTo(0, 300));
    const topRow = (): Promise<string | undefined> =>
      page.locator('#entries').evaluate((list) => {
        const { top, left } = list.getBoundingClientRect();
        return list.ownerDocument.elementFromPoint(left + 200, top + 5)?.closest('li')?.textContent ?? undefined;
      });
    const before = await topRow();
    for (let i = 0; i < 5; i += 1) await mock.authed(`/pets?limit=1&later=${i}`, { headers });
    await page.locator('#entries .entry', { hasText: 'later=4' }).waitFor({ state: 'attached' });
    expect(await topRow()).toBe(before);
  });

  it('keeps at most 500 rows, the newest, and sums up a burst in one row', async () => {
    const { page } = browser;
    const session = 'qa-many';
    const headers = { 'x-mock-session': session };
    await openConsole(page, origin(), { session });
    // 600 entries in small batches, so the stream sends them as entries, not summaries.
    for (let batch = 0; batch < 15; batch += 1) {
      await Promise.all(Array.from({ length: 40 }, (_, i) => mock.authed(`/pets?limit=1&b=${batch}-${i}`, { headers })));
      await page.waitForTimeout(300);
    }
    await page.locator('#entries .entry', { hasText: 'b=14-' }).first().waitFor({ state: 'attached' });
    expect(await page.locator('#entries li').count()).toBe(500);
    expect(await page.locator('#entries .entry', { hasText: 'b=0-' }).count()).toBe(0);

    const burst = 200;
    await Promise.all(Array.from({ length: burst }, () => mock.authed('/pets?limit=1&burst=1', { headers })));
    await page.locator('#entries .summary').first().waitFor();
    const summed = async (): Promise<number> => {
      const counts = await page.locator('#entries .summary').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-count'))));
      return counts.reduce((a, b) => a + b, 0) + (await page.locator('#entries .entry', { hasText: 'burst=1' }).count());
    };
    await expect.poll(summed).toBe(burst);
    expect(await page.locator('#entries .summary').first().innerText()).toMatch(/^\S+\s+\d+ requests in 250 ms: 200×\d+/);
  });

  it('follows on after a dropped connection from the last entry it showed: none twice, none missed', async () => {
    const { page } = browser;
    const session = 'qa-drop';
    const headers = { 'x-mock-session': session };
    const proxy = await pausableProxy(mock.port);
    try {
      for (let i = 0; i < 3; i += 1) await mock.authed(`/pets?limit=1&before=${i}`, { headers });
      await openConsole(page, `http://127.0.0.1:${proxy.port}`, { session });
      await page.locator('#entries .entry', { hasText: 'before=2' }).waitFor();
      proxy.drop();
      for (let i = 0; i < 2; i += 1) await mock.authed(`/pets?limit=1&during=${i}`, { headers });
      await page.locator('#entries .entry', { hasText: 'during=1' }).waitFor();
      const paths = await page.locator('#entries .entry .path').allInnerTexts();
      expect(paths).toEqual(['during=1', 'during=0', 'before=2', 'before=1', 'before=0'].map((query) => `/v1/pets?limit=1&${query}`));
    } finally {
      await proxy.close();
    }
  });

  it('empties the list when the journal is cleared, from the page or elsewhere', async () => {
    const { page } = browser;
    const session = 'qa-clear';
    const headers = { 'x-mock-session': session };
    await mock.authed('/pets?limit=1&n=1', { headers });
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#entries .entry').first().waitFor();
    await page.click('#clear-journal');
    await expect.poll(() => page.locator('#entries li').count()).toBe(0);
    expect((await mock.admin('/journal', { headers })).json.entries).toEqual([]);
    await mock.authed('/pets?limit=1&n=2', { headers });
    await page.locator('#entries .entry', { hasText: 'n=2' }).waitFor();
    // Another client (a test run's teardown) clears it: the open page follows.
    await mock.admin('/journal', { method: 'DELETE', headers });
    await expect.poll(() => page.locator('#entries li').count()).toBe(0);
  });

  it('ends one session, then all, from the page; the shared default stays', async () => {
    const { page } = browser;
    for (const session of ['qa-end-1', 'qa-end-2']) await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': session } });
    const running = async (): Promise<string[]> => (await mock.admin('/sessions')).json.sessions.map((session: { id: string }) => session.id);
    await openConsole(page, origin(), { key: TEST_KEY });
    await page.click('button[aria-label="End session qa-end-1"]');
    await page.locator('#notice', { hasText: 'qa-end-1 ended' }).waitFor();
    expect(await running()).not.toContain('qa-end-1');
    expect(await running()).toContain('qa-end-2');
    await page.click('#end-all');
    await page.locator('#sessions', { hasText: 'No session is running' }).waitFor();
    expect(await running()).toEqual([]);
    expect((await mock.authed('/pets?limit=1')).status).toBe(200);
  });

  it('resets from the page: the animal created in the session is gone, and the health line says so', async () => {
    const { page } = browser;
    const session = 'qa-reset';
    const created = await mock.authed('/pets', { method: 'POST', headers: { 'x-mock-session': session, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Temporary', categoryId: 1 }) });
    expect(created.status).toBe(201);
    const before = (await mock.health({ 'x-mock-session': session })).pets;
    await openConsole(page, origin(), { key: TEST_KEY, session, live: false });
    await page.locator('#health .pets', { hasText: `${before} pets` }).waitFor();
    await page.click('#reset-all');
    await page.locator('#health .pets', { hasText: `${before - 1} pets` }).waitFor();
    expect((await mock.authed(`/pets/${created.json.id}`, { headers: { 'x-mock-session': session } })).status).toBe(404);
  });
});

describe('the QA console with a refused scenario file', () => {
  const folder = scenarioFolder();
  folder.write('default.yaml', scenarioWith('default', []));
  folder.write('broken.yaml', scenarioWith('broken', [{ id: 'wrong', match: { operation: 'listPets' }, response: { status: 299 } }]));
  const mock = useMock({ scenario: 'default', scenariosDir: folder.dir });
  const browser = useBrowser();

  it('shows its file and why it is refused, as the admin API says, and offers no activation', async () => {
    const { page } = browser;
    const listed = (await mock.admin('/scenarios')).json.scenarios.find((scenario: { name: string }) => scenario.name === 'broken');
    expect(listed.valid).toBe(false);
    await page.goto(`${new URL(mock.url).origin}/__mock/`);
    const card = page.locator('[data-scenario="broken"]');
    await card.waitFor();
    expect(await card.locator('.errors li').allInnerTexts()).toEqual(listed.errors);
    expect(await card.locator('.file').innerText()).toBe(listed.file);
    expect(await card.locator('button[aria-label="Activate broken"]').isDisabled()).toBe(true);
  });
});

describe('the QA console with --admin-key', () => {
  const mock = useMock({ scenario: 'default', adminKey: ADMIN_KEY });
  const browser = useBrowser();

  it('shows the 401\'s message and asks for the key, then works once given', async () => {
    const { page } = browser;
    const refused = await mock.adminAsIs('/health');
    expect(refused.status).toBe(401);
    await page.goto(`${new URL(mock.url).origin}/__mock/`);
    await page.locator('#notice', { hasText: refused.json.message }).waitFor();
    expect(await page.locator('#key:focus').count()).toBe(1);
    expect(await page.locator('#scenarios li').count()).toBe(0);

    await page.fill('#key', ADMIN_KEY);
    await page.click('#key-form button[type=submit]');
    await page.locator('#health', { hasText: 'scenario default' }).waitFor();
    await page.locator('#stream-state.live').waitFor();
    await page.locator('[data-scenario="flaky"]').waitFor();
    await mock.authed('/pets?limit=1&note=once-given');
    await page.locator('#entries .entry .path', { hasText: 'note=once-given' }).waitFor();
  });
});
