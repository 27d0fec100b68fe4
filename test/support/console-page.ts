import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect } from 'vitest';
import { openPage, type OpenPage } from './browser.js';

/** Driving the QA console (console/, `GET /__mock/`) in the browser tests. */

/** A fresh browser per test: its own sessionStorage (the key, the chosen session). */
export function useBrowser(): { readonly page: Page } {
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
export async function openConsole(page: Page, origin: string, { key, session, live = true }: { key?: string; session?: string; live?: boolean } = {}): Promise<void> {
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
export const rowStatuses = (page: Page): Promise<string[]> => page.locator('#entries .entry .status').allInnerTexts();
