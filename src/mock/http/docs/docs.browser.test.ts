import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../document/load-contract.js';
import { openPage, screenshot } from '../../../../test/support/browser.js';
import { TEST_KEY, useMock } from '../../../../test/support/use-mock.js';

// The removal date, as the contract gives it (x-sunset), written as the page must show it.
const sunset = loadContract().operations.get('getPet')?.sunset?.toISOString().slice(0, 10) as string;

describe('/docs in Chromium', () => {
  const mock = useMock();

  it('renders the three operations, getPet deprecated with its sunset date, and Try it gets a 200 from the mock, reaching no other host', { timeout: 60_000 }, async () => {
    const origin = new URL(mock.url).origin;
    await mock.admin('/journal', { method: 'DELETE' });
    const { page, close } = await openPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // A script error or a request the page's Content-Security-Policy blocked shows here.
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      await page.goto(`${origin}/docs`);
      for (const id of ['listPets', 'createPet', 'getPet']) await page.locator(`#operations-pets-${id}`).waitFor({ timeout: 20_000 });
      expect(await page.locator('#operations-pets-getPet.opblock-deprecated').count()).toBe(1);
      expect(await page.locator('#operations-pets-listPets.opblock-deprecated').count()).toBe(0);
      // The date is in the folded line, seen without opening getPet.
      expect(await page.locator('#operations-pets-getPet .opblock-summary').innerText()).toContain(sunset);
      // The server, as the document gives it (relative, resolved against the page's address when called).
      expect(await page.locator('.servers select').inputValue()).toBe('/v1');
      expect(await page.locator('.servers select option').allInnerTexts()).toEqual(['/v1 - This mock']);
      // The picture in docs/mock.md: the whole reference at a glance, before anything is opened.
      await screenshot(page, 'docs');
      await page.click('#operations-pets-getPet .opblock-summary');
      const getPet = page.locator('#operations-pets-getPet');
      await getPet.getByText('Warning: Deprecated').waitFor();
      expect(await getPet.innerText()).toContain(sunset);

      // The key, as a person enters it: Authorize, the key alone, Authorize, Close.
      await page.click('.scheme-container button.authorize');
      await page.fill('.auth-container input', TEST_KEY);
      await page.click('.auth-btn-wrapper button.authorize');
      await page.click('.auth-btn-wrapper button.btn-done');

      await page.click('#operations-pets-listPets .opblock-summary');
      const listPets = page.locator('#operations-pets-listPets');
      await listPets.locator('button.execute').click();
      const status = listPets.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 10_000 });
      expect((await status.innerText()).trim()).toBe('200');
      // The relative server resolved against the page's own address: the curl line and the URL the page shows name this mock.
      const called = new URL(await listPets.locator('.request-url pre').innerText());
      expect(`${called.origin}${called.pathname}`).toBe(`${origin}/v1/pets`);
      // No optional parameter sent unless the reader fills it in: the status field starts empty, so the list is not filtered.
      expect([...called.searchParams.keys()]).not.toContain('status');

      // The request reached this mock, with the key: its journal (the shared session's, keyed requests only) has it.
      const entries = (await mock.admin('/journal')).json.entries as Array<{ method: string; path: string; status: number }>;
      expect(entries.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/pets') && e.status === 200)).toHaveLength(1);
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
