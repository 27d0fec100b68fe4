import { describe, expect, it } from 'vitest';
import { openConsole, useBrowser } from '../../../../test/support/console-page.js';
import { pausableProxy } from '../../../../test/support/pausable-proxy.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';
import { MAX_STREAMS_PER_ADDRESS } from './stream-slots.js';

/**
 * The QA console's live journal in a real headless Chromium,
 * against a real mock: how the rows arrive, are kept, filtered and opened,
 * and what the page does when the stream drops, is cleared, ends or is busy.
 */
describe('the QA console\'s live journal', () => {
  const mock = useMock({ scenario: 'default' });
  const browser = useBrowser();
  const origin = (): string => new URL(mock.url).origin;

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
    // The time it covers, as the stream says it: about one tick here, never a fixed "250 ms".
    expect(await page.locator('#entries .summary').first().innerText()).toMatch(/^\S+\s+\d+ requests in (\d+ ms|\d+(\.\d)? s): 200×\d+/);
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

  it('filters the rows by status, operation and "no stub matched", as the journal says', async () => {
    const { page } = browser;
    const session = 'qa-filter';
    const headers = { 'x-mock-session': session };
    await mock.admin('/scenarios/active', { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'flaky' }) });
    for (const path of ['/pets?limit=1', '/pets/99999', '/pets/1', '/pets?limit=2', '/pets/2', '/pets/3', '/pets?limit=3']) await mock.authed(path, { headers });
    type Entry = { path: string; status: number; operation: string | null; stub: string | null };
    const entries = ((await mock.admin('/journal', { headers })).json.entries as Entry[]).reverse();
    await openConsole(page, origin(), { session });
    await page.locator('#entries .entry').nth(entries.length - 1).waitFor();
    const shown = (): Promise<string[]> => page.locator('#entries .entry .path').allInnerTexts();
    const expectShown = async (keep: (entry: Entry) => boolean): Promise<void> => {
      const expected = entries.filter(keep).map((entry) => entry.path);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(entries.length);
      expect(await shown()).toEqual(expected);
    };

    await page.fill('#filter-status', '5xx');
    await expectShown((entry) => entry.status >= 500);
    await page.fill('#filter-status', '404');
    await expectShown((entry) => entry.status === 404);
    await page.fill('#filter-status', 'five hundred');
    expect(await page.locator('#filter-status').getAttribute('aria-invalid')).toBe('true');
    expect(await shown()).toHaveLength(entries.length);
    await page.fill('#filter-status', '');
    await page.selectOption('#filter-operation', 'getPet');
    await expectShown((entry) => entry.operation === 'getPet');
    await page.selectOption('#filter-operation', '');
    await page.check('#filter-unmatched');
    await expectShown((entry) => entry.stub === null);
  });

  it('opens an entry from the keyboard alone', async () => {
    const { page } = browser;
    const session = 'qa-keyboard';
    await mock.authed('/pets?limit=1&typed=1', { headers: { 'x-mock-session': session } });
    await openConsole(page, origin(), { session });
    const row = page.locator('#entries .entry', { hasText: 'typed=1' });
    await row.waitFor();
    await row.focus();
    await page.keyboard.press('Enter');
    await page.locator('#details h3', { hasText: 'typed=1' }).waitFor();
    await page.locator('#details .close').focus();
    await page.keyboard.press('Enter');
    await page.locator('#details').waitFor({ state: 'hidden' });
  });

  it('says so when the followed session ends, and stops following it', async () => {
    const { page } = browser;
    const session = 'qa-ended';
    await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': session } });
    await openConsole(page, origin(), { session });
    await page.locator('#stream-state.live').waitFor();
    expect((await mock.admin(`/sessions/${session}`, { method: 'DELETE' })).status).toBe(200);
    await page.locator('#stream-state', { hasText: 'Ended' }).waitFor();
  });

  it('waits its turn when its address holds every stream it may (503 too_many_streams), then follows', async () => {
    const { page } = browser;
    const taken: AbortController[] = [];
    // Held, not only their controllers: node's fetch cancels the body of a Response the garbage collector takes, which would free a slot.
    const held: Response[] = [];
    const streams = async (): Promise<number> => (await mock.admin('/health')).json.streams.open;
    // The streams of earlier tests' closed pages first go away, so that every slot counted is one this test holds.
    await expect.poll(streams).toBe(0);
    try {
      // This test and the page both call from 127.0.0.1.
      while ((await streams()) < MAX_STREAMS_PER_ADDRESS) {
        const controller = new AbortController();
        taken.push(controller);
        const res = await fetch(`${origin()}/__mock/journal/anonymous/stream`, { signal: controller.signal });
        expect(res.status).toBe(200);
        held.push(res);
      }
      await page.goto(`${origin()}/__mock/`);
      await page.locator('#stream-state', { hasText: 'Busy' }).waitFor({ timeout: 10_000 });
      taken.pop()?.abort();
      await expect.poll(streams).toBeLessThan(MAX_STREAMS_PER_ADDRESS);
      // The page asks again after the 503's Retry-After (5 s): within two of them, whenever the slot came free.
      await page.locator('#stream-state.live').waitFor({ timeout: 12_000 });
    } finally {
      for (const controller of taken) controller.abort();
      held.length = 0;
    }
    // The next tests' pages need streams: the mock lets go of those the test dropped. The page keeps two: its session's, and the keyless 401s naming it.
    await expect.poll(streams).toBeLessThanOrEqual(2);
  });
});

describe('the QA console\'s live journal across reconnects', () => {
  const mock = useMock({ scenario: 'default' });
  const browser = useBrowser();
  /** Opens the console on `session` through a proxy the test can cut, once the requests `before` made (queries) are in its list. */
  const throughProxy = async (session: string, before: string[], run: (proxy: Awaited<ReturnType<typeof pausableProxy>>, headers: Record<string, string>) => Promise<void>) => {
    const headers = { 'x-mock-session': session };
    const proxy = await pausableProxy(mock.port);
    try {
      for (const query of before) await mock.authed(`/pets?limit=1&${query}`, { headers });
      await openConsole(browser.page, `http://127.0.0.1:${proxy.port}`, { session });
      await browser.page.locator('#entries .entry', { hasText: before.at(-1) }).waitFor();
      await run(proxy, headers);
    } finally {
      await proxy.close();
    }
  };

  it('empties its rows when the journal was cleared while it was disconnected', async () => {
    const { page } = browser;
    await throughProxy('qa-cleared-away', ['before=1'], async (proxy, headers) => {
      proxy.drop();
      await mock.admin('/journal', { method: 'DELETE', headers });
      await mock.authed('/pets?limit=1&after=1', { headers });
      await page.locator('#entries .entry', { hasText: 'after=1' }).waitFor();
      expect(await page.locator('#entries .entry .path').allInnerTexts()).toEqual(['/v1/pets?limit=1&after=1']);
    });
  });

  it('starts afresh when the journal is another one with as many requests (its session started again while it was away)', async () => {
    const { page } = browser;
    await throughProxy('qa-started-again', ['old=0', 'old=1', 'old=2'], async (proxy, headers) => {
      proxy.drop();
      await mock.admin('/sessions/qa-started-again', { method: 'DELETE' });
      for (let i = 0; i < 3; i += 1) await mock.authed(`/pets?limit=1&new=${i}`, { headers });
      await page.locator('#entries .entry', { hasText: 'new=2' }).waitFor();
      const paths = await page.locator('#entries .entry .path').allInnerTexts();
      expect(paths).toEqual(['new=2', 'new=1', 'new=0'].map((query) => `/v1/pets?limit=1&${query}`));
    });
  });

  it('says how many requests it did not show when it resumes more than the backlog behind', async () => {
    const { page } = browser;
    await throughProxy('qa-far-behind', ['first=1'], async (proxy, headers) => {
      // Keep it away (every new stream refused) while 70 requests arrive: 20 more than the backlog of 50.
      await page.route('**/journal/stream*', (route) => route.abort());
      proxy.drop();
      for (let i = 0; i < 70; i += 1) await mock.authed(`/pets?limit=1&away=${i}`, { headers });
      await page.unroute('**/journal/stream*');
      const missed = page.locator('#entries .summary', { hasText: 'not shown' });
      await missed.waitFor({ timeout: 12_000 });
      expect(await missed.getAttribute('data-count')).toBe('20');
      expect(await missed.innerText()).toMatch(/20 requests not shown: 200×20/);
      expect(await page.locator('#entries .entry', { hasText: 'away=' }).count()).toBe(50);
    });
  });
});

describe('the QA console when the mock ends a stream as planned (its lifetime)', () => {
  const mock = useMock({ scenario: 'default', streamLifetimeMs: 800 });
  const browser = useBrowser();

  it('follows on at once, showing no lost connection, and no entry twice', async () => {
    const { page } = browser;
    const session = 'qa-lifetime';
    const headers = { 'x-mock-session': session };
    await mock.authed('/pets?limit=1&n=0', { headers });
    await openConsole(page, new URL(mock.url).origin, { session });
    await page.locator('#entries .entry', { hasText: 'n=0' }).waitFor();
    // What the stream's state line says, read every 50 ms: a lost connection would show for its 0.5 s retry at least.
    const states = new Set<string>();
    for (let i = 1; i <= 3; i += 1) {
      const until = Date.now() + 800;
      while (Date.now() < until) {
        states.add(await page.locator('#stream-state').innerText());
        await page.waitForTimeout(50);
      }
      await mock.authed(`/pets?limit=1&n=${i}`, { headers });
    }
    await page.locator('#entries .entry', { hasText: 'n=3' }).waitFor();
    expect([...states].filter((state) => !['Connecting…', 'Live'].includes(state))).toEqual([]);
    expect(await page.locator('#entries .entry .path').allInnerTexts()).toEqual([3, 2, 1, 0].map((n) => `/v1/pets?limit=1&n=${n}`));
  });
});
