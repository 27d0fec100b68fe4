import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../../../../test/support/browser.js';
import { openConsole, rowStatuses, useBrowser } from '../../../../test/support/console-page.js';
import { scenarioFolder, scenarioWith } from '../../../../test/support/scenario-folder.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

/**
 * The QA console in a real headless Chromium, against a real
 * mock on a free port: each test drives the page as QA would, and checks
 * what the mock did through its own HTTP API.
 */
const ADMIN_KEY = 'admin-secret-console';
const run = promisify(execFile);

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

    // A journal as QA would see it, for the picture in README.md and docs/admin-and-console.md: other operations, a 404, a create.
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

    // A key no header can carry is refused on the page, not sent.
    await page.fill('#key', 'clé secrète');
    await page.click('#key-form button[type=submit]');
    await page.locator('#notice', { hasText: 'printable ASCII' }).waitFor();

    await page.fill('#key', ADMIN_KEY);
    await page.click('#key-form button[type=submit]');
    await page.locator('#health', { hasText: 'scenario default' }).waitFor();
    await page.locator('#stream-state.live').waitFor();
    await page.locator('[data-scenario="flaky"]').waitFor();
    await mock.authed('/pets?limit=1&note=once-given');
    await page.locator('#entries .entry .path', { hasText: 'note=once-given' }).waitFor();
  });
});

describe('the QA console names the profile the mock answers by', () => {
  const folder = scenarioFolder();
  folder.write('newest-first.yaml', 'version: 1\nname: newest-first\nchoices:\n  order: descending\n');
  const mock = useMock({ profileFile: join(folder.dir, 'newest-first.yaml'), watch: true });
  const browser = useBrowser();

  it('in the health line, with its file; an edit of the profile shows at the next poll', async () => {
    const { page } = browser;
    await openConsole(page, new URL(mock.url).origin, { key: TEST_KEY });
    const profile = page.locator('#health .profile');
    await profile.filter({ hasText: 'profile newest-first' }).waitFor();
    expect(await profile.getAttribute('title')).toContain('newest-first.yaml');
    folder.write('newest-first.yaml', 'version: 1\nname: renamed\nchoices:\n  order: descending\n');
    await page.locator('#health .profile', { hasText: 'profile renamed' }).waitFor({ timeout: 15_000 });
  });
});
