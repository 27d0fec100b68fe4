/**
 * A real headless Chromium for the browser tests (`*.browser.test.ts`):
 * Debian's `chromium`, driven by playwright-core, which downloads no
 * browser of its own. Each page gets a fresh browser with a profile of its
 * own in a temporary folder, so no test sees another's storage or cache.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { packageRoot } from '../../src/shared/package-root.js';
import { CHROMIUM, requireServerCommand } from './system-servers.js';

// What a browser on a CI machine does without being asked: none of it may reach the network or slow a test.
const FLAGS = [
  // CI runs as root in a container, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface OpenPage {
  page: Page;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A page in a new headless Chromium, 1280×800, its messages to the console kept for a failing test's output. */
export async function openPage(): Promise<OpenPage> {
  const profile = mkdtempSync(join(tmpdir(), 'animal-store-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: requireServerCommand(CHROMIUM),
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where `npm run screenshots` writes the pictures of the README and the guides. */
export const SCREENSHOTS_DIR = join(packageRoot(), 'docs', 'screenshots');

/**
 * The picture of a page in the README or a guide, taken by the test that checks it, so the
 * picture shows what the suite saw. Written only when MOCK_SCREENSHOTS=1
 * (`npm run screenshots`): a plain test run must not change tracked files.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.MOCK_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`) });
}
