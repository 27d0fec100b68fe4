import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { loadScenarioFile } from '../../core/scenarios/load-scenario.js';
import { openConsole, useBrowser } from '../../../../test/support/console-page.js';
import { scenarioFolder } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/**
 * The console's session stubs ("answer requests like this with…") and the
 * console's readability fixes, in a real headless Chromium against a real
 * mock: what the page does is checked through the mock's own HTTP API.
 */
describe('the QA console: a stub from a journal row', () => {
  const mock = useMock({ scenario: 'default' });
  const browser = useBrowser();
  const folder = scenarioFolder();
  const origin = (): string => new URL(mock.url).origin;
  const inSession = (session: string) => ({ headers: { 'x-mock-session': session } });

  it('makes getPet answer 500 for this session alone, lists it, downloads it as a scenario file that loads, and removes it', async () => {
    const { page } = browser;
    const session = 'qa-stub';
    await mock.authed('/pets/1', inSession(session));
    await openConsole(page, origin(), { key: TEST_KEY, session });
    const row = page.locator('#entries .entry', { hasText: '/v1/pets/1' });
    await row.waitFor();
    expect(await row.locator('.stub').innerText()).toBe('catalogue');
    await row.click();
    const form = page.locator('#details form.stub-form');
    await form.locator('text=Every getPet request of session qa-stub only').waitFor();
    await form.locator('button[type=submit]').click();
    await page.locator('#notice', { hasText: 'Stub getpet-500 added' }).waitFor();

    expect((await mock.authed('/pets/1', inSession(session))).status).toBe(500);
    expect((await mock.authed('/pets', inSession(session))).status).toBe(200);
    expect((await mock.authed('/pets/1', inSession('qa-other'))).status).toBe(200);
    expect((await mock.authed('/pets/1')).status).toBe(200);

    const item = page.locator('#stubs [data-stub="getpet-500"]');
    expect(await item.locator('.what').innerText()).toBe('getPet → 500');
    expect(await page.locator('#stub-count').innerText()).toBe('1 of 20');
    // The 500 shows in the journal as the session stub's answer.
    await page.locator('#entries .entry.s5xx .stub', { hasText: 'session stub getpet-500' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), item.locator('button', { hasText: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('getpet-500.yaml');
    const file = folder.write('getpet-500.yaml', await readFile(await download.path(), 'utf8'));
    const loaded = loadScenarioFile(loadContract(), file);
    expect(loaded.ok ? loaded.value.stubs.map((s) => [s.label, s.operation]) : loaded.error).toEqual([['getpet-500', 'getPet']]);

    await item.locator('button', { hasText: 'Remove' }).click();
    await page.locator('#notice', { hasText: 'Stub getpet-500 removed' }).waitFor();
    await page.locator('#stubs', { hasText: 'No stub' }).waitFor();
    expect((await mock.admin('/stubs', inSession(session))).json.stubs).toEqual([]);
    expect((await mock.authed('/pets/1', inSession(session))).status).toBe(200);
  });

  it('offers a delay and the faults hang, reset, close, malformed-json, empty-body, wrong-content-type, gateway-page, fallback-page and truncated-body, each added as the scenario format writes it', async () => {
    const { page } = browser;
    const session = 'qa-kinds';
    await mock.authed('/pets?limit=1', inSession(session));
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#entries .entry', { hasText: 'limit=1' }).click();
    const form = page.locator('#details form.stub-form');
    await form.locator('select').selectOption('delay');
    await form.locator('input[name=ms]').fill('1500');
    await form.locator('button[type=submit]').click();
    await page.locator('#stubs [data-stub="listpets-delay"]').waitFor();
    for (const fault of ['hang', 'reset', 'close', 'malformed-json', 'empty-body', 'wrong-content-type', 'gateway-page', 'fallback-page', 'truncated-body']) {
      await form.locator('select').selectOption(fault);
      await form.locator('button[type=submit]').click();
      await page.locator(`#stubs [data-stub="listpets-${fault}"]`).waitFor();
    }
    const stubs = (await mock.admin('/stubs', inSession(session))).json.stubs as Array<{ fault: unknown }>;
    expect(stubs.map((s) => s.fault)).toEqual([{ latency: { fixedMs: 1500 } }, { then: 'hang' }, { then: 'reset' }, { then: 'close' }, { then: 'malformed-json' }, { then: 'empty-body' }, { then: 'wrong-content-type' }, { then: 'gateway-page' }, { then: 'fallback-page' }, { then: 'truncated-body' }]);
  });
});

describe('the QA console: what a first-time user sees', () => {
  const mock = useMock({ scenario: 'default' });
  const browser = useBrowser();
  const origin = (): string => new URL(mock.url).origin;

  it('shows a 401 naming the session in that session\'s view, marked, while it stays in the anonymous journal', async () => {
    const { page } = browser;
    const session = 'qa-keyless';
    await mock.authed('/pets?limit=2', { headers: { 'x-mock-session': session } });
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#entries .entry', { hasText: 'limit=2' }).waitFor();
    const refused = await mock.request('/pets?probe=anon-1', { headers: { 'x-mock-session': session } });
    expect(refused.status).toBe(401);
    const row = page.locator('#entries .entry.keyless', { hasText: 'probe=anon-1' });
    await row.waitFor();
    expect(await row.locator('.stub').innerText()).toBe('no key (401)');
    await row.click();
    await page.locator('#details', { hasText: 'Kept in the anonymous journal' }).waitFor();
    expect(await page.locator('#details form.stub-form').count()).toBe(0);
    // The protection holds: the session's own journal has no keyless entry; the anonymous one has it.
    const own = (await mock.admin('/journal', { headers: { 'x-mock-session': session } })).json.entries as Array<{ path: string }>;
    expect(own.map((e) => e.path).filter((path) => path.includes('anon-1'))).toEqual([]);
    const anonymous = (await mock.admin('/journal/anonymous')).json.entries as Array<{ path: string }>;
    expect(anonymous.map((e) => e.path)).toContain('/v1/pets?probe=anon-1');
    // Another session's view does not show it.
    await mock.request('/pets?elsewhere=1', { headers: { 'x-mock-session': 'qa-someone-else' } });
    await page.locator('#entries .entry', { hasText: 'probe=anon-1' }).waitFor();
    expect(await page.locator('#entries .entry', { hasText: 'elsewhere=1' }).count()).toBe(0);
  });

  it('shows at most 50 of them: a flood without a key pushes neither the journal\'s nor the page\'s own rows out', async () => {
    const { page } = browser;
    const session = 'qa-flood';
    await mock.authed('/pets?probe=own-row', { headers: { 'x-mock-session': session } });
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#entries .entry', { hasText: 'probe=own-row' }).waitFor();
    // In batches the page sees one by one: over 50 in one tick, the stream sends a count of the anonymous journal's entries, which names no session.
    for (let batch = 0; batch < 3; batch += 1) {
      for (let i = batch * 20; i < (batch + 1) * 20; i += 1) await mock.request(`/pets?flood=${i}`, { headers: { 'x-mock-session': session } });
      await page.locator('#entries .entry.keyless', { hasText: `flood=${batch * 20 + 19}` }).waitFor();
    }
    expect(await page.locator('#entries .entry.keyless').count()).toBe(50);
    expect(await page.locator('#entries .entry.keyless', { hasText: 'flood=9' }).count()).toBe(0);
    expect(await page.locator('#entries .entry', { hasText: 'probe=own-row' }).count()).toBe(1);
    expect((await mock.admin('/journal', { headers: { 'x-mock-session': session } })).json.entries).toHaveLength(1);
  });

  it('shows them for a session no accepted request has started yet', async () => {
    const { page } = browser;
    const session = 'qa-never-started';
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#stream-state', { hasText: 'Waiting for session' }).waitFor();
    expect((await mock.request('/pets?probe=first-try', { headers: { 'x-mock-session': session } })).status).toBe(401);
    await page.locator('#entries .entry.keyless', { hasText: 'probe=first-try' }).waitFor();
  });

  it('waits for a session to start without a refused request, so the browser\'s console stays clean, then follows it live', async () => {
    const { page } = browser;
    const session = 'qa-waited-for';
    const refused: string[] = [];
    const watch = (response: { status(): number; url(): string }) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    };
    page.on('response', watch);
    try {
      await openConsole(page, origin(), { key: TEST_KEY, session });
      await page.locator('#stream-state', { hasText: 'Waiting for session' }).waitFor();
      // Long enough for the page to have looked again a few times.
      await page.waitForTimeout(3500);
      await mock.authed('/pets?probe=starts-it', { headers: { 'x-mock-session': session } });
      await page.locator('#stream-state.live').waitFor({ timeout: 5000 });
      await page.locator('#entries .entry', { hasText: 'probe=starts-it' }).waitFor();
      expect(refused).toEqual([]);
    } finally {
      page.off('response', watch);
    }
  });

  it('the banner\'s animal count follows a create at once, not at the next poll', async () => {
    const { page } = browser;
    const session = 'qa-count';
    await mock.authed('/pets?limit=1', { headers: { 'x-mock-session': session } });
    const before = (await mock.health({ 'x-mock-session': session })).pets;
    await openConsole(page, origin(), { key: TEST_KEY, session });
    await page.locator('#health .pets', { hasText: `${before} pets` }).waitFor();
    const created = await mock.authed('/pets', { method: 'POST', headers: { 'x-mock-session': session, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Counted', categoryId: 1 }) });
    expect(created.status).toBe(201);
    expect((await mock.health({ 'x-mock-session': session })).pets).toBe(before + 1);
    // The health poll is every 5 s: well within it.
    await page.locator('#health .pets', { hasText: `${before + 1} pets` }).waitFor({ timeout: 2000 });
  });

  it('at 1280 px, the details pane holds a header name and a JSON line whole, and the journal\'s columns are not cut', async () => {
    const { page } = browser;
    expect(page.viewportSize()?.width).toBe(1280);
    const session = 'qa-wide';
    await mock.authed('/pets/1', { headers: { 'x-mock-session': session } });
    await mock.authed('/pets', { method: 'OPTIONS', headers: { 'x-mock-session': session } });
    await openConsole(page, origin(), { key: TEST_KEY, session });
    const row = page.locator('#entries .entry', { hasText: '/v1/pets/1' });
    await row.click();
    await page.locator('#details .headers th', { hasText: 'access-control-expose-headers' }).first().waitFor();
    // Run in the page, as text: the node test files have no DOM types.
    const cut = (await page.evaluate(`(() => {
      const isCut = (node) => node.scrollWidth > node.clientWidth + 1;
      // How many lines a node's text takes on screen: one per distinct top of its text's boxes.
      const shownLines = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      };
      const wrappedOrCut = (node, lines) => isCut(node) || shownLines(node) > lines;
      const names = [...document.querySelectorAll('#details .headers th')].filter((node) => wrappedOrCut(node, 1)).map((node) => node.textContent);
      const bodies = [...document.querySelectorAll('#details pre.body')].filter((node) => wrappedOrCut(node, node.textContent.split('\\n').length)).map((node) => node.textContent);
      const columns = [...document.querySelectorAll('#entries .entry')].flatMap((entry) =>
        [...entry.querySelectorAll('.time, .status, .method, .stub')].filter((node) => node.offsetParent !== null && isCut(node)).map((node) => node.textContent),
      );
      return { names, bodies, columns, pane: document.querySelector('#details').getBoundingClientRect().width };
    })()`)) as { names: string[]; bodies: string[]; columns: string[]; pane: number };
    expect(cut).toEqual({ names: [], bodies: [], columns: [], pane: expect.any(Number) });
    expect(cut.pane).toBeGreaterThanOrEqual(420);
  });

  it('disables what needs a key, with a one-line hint, until a key is entered', async () => {
    const { page } = browser;
    await openConsole(page, origin());
    await page.locator('[data-scenario="flaky"]').waitFor();
    expect(await page.locator('#key-hint').isVisible()).toBe(true);
    for (const selector of ['#reset-all', '#end-all', '#clear-journal', 'button[aria-label="Activate flaky"]', 'button[aria-label="Reset flaky"]']) {
      expect(await page.locator(selector).isDisabled(), selector).toBe(true);
    }
    await page.fill('#key', TEST_KEY);
    await page.click('#key-form button[type=submit]');
    await page.locator('#key-hint').waitFor({ state: 'hidden' });
    await page.locator('button[aria-label="Activate flaky"]:not([disabled])').waitFor();
    expect(await page.locator('#reset-all').isDisabled()).toBe(false);
  });

  it('with 11 or more scenarios, the list can be searched', async () => {
    const { page } = browser;
    const listed = (await mock.admin('/scenarios')).json.scenarios as unknown[];
    expect(listed.length).toBeGreaterThanOrEqual(11);
    await openConsole(page, origin());
    await page.locator('#scenario-search').waitFor();
    await page.fill('#scenario-search', 'server');
    expect(await page.locator('#scenarios > li:visible').evaluateAll((items) => items.map((item) => item.getAttribute('data-scenario')))).toEqual(['server-error']);
    await page.fill('#scenario-search', '');
    expect(await page.locator('#scenarios > li:visible').count()).toBe(listed.length);
  });

  it('names who answered a row: catalogue, Prefer, or no stub', async () => {
    const { page } = browser;
    const session = 'qa-answerer';
    const headers = { 'x-mock-session': session };
    await mock.authed('/pets/2', { headers });
    await mock.authed('/pets/3', { headers: { ...headers, prefer: 'code=503' } });
    await mock.authed('/nowhere', { headers });
    await openConsole(page, origin(), { key: TEST_KEY, session });
    const answerer = (path: string) => page.locator('#entries .entry', { hasText: path }).locator('.stub').innerText();
    await page.locator('#entries .entry', { hasText: '/nowhere' }).waitFor();
    expect([await answerer('/v1/pets/2'), await answerer('/v1/pets/3'), await answerer('/nowhere')]).toEqual(['catalogue', 'Prefer', 'no stub']);
  });
});
