import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenStatements, CONTRACT_BIN, startApiServer, type TestServer } from '../../../test/support/contract-cli.js';
import { openPage, screenshot } from '../../../test/support/browser.js';
import { childEnv, Processes, requireBuilt } from '../../../test/support/processes.js';
import { REDACTED_KEY } from '../http-client.js';

/**
 * The HTML report as a colleague gets it: a file opened from disk in
 * Chromium, written by the built harness after a failed run against a
 * server that breaks some statements (test/support/contract-cli.ts).
 */
const KEY = 'html-report-browser-key';
const FAILING = 'list-status-available';
const processes = new Processes();
let server: TestServer;
let tmp: string;
let report: string;

beforeAll(async () => {
  requireBuilt(CONTRACT_BIN);
  tmp = mkdtempSync(join(tmpdir(), 'animal-store-html-browser-'));
  report = join(tmp, 'report.html');
  server = await startApiServer({ apiKey: KEY, wrap: brokenStatements(KEY) });
  const run = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--read-only', '--reporter', 'html', '--output', report], { env: childEnv(), cwd: tmp });
  expect(run.code, run.stderr).toBe(1);
}, 60_000);

afterAll(async () => {
  await processes.killAll();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the HTML report in Chromium', () => {
  it('opens from disk, fetching nothing, and shows a failing rule with its curl line', { timeout: 60_000 }, async () => {
    const { page, close } = await openPage();
    try {
      const offPage: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) offPage.push(request.url());
      });
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(pathToFileURL(report).href);

      expect(await page.locator('h1').innerText()).toMatch(/^Contract tests FAILED$/);
      expect(await page.locator('#target').innerText()).toContain(server.url);
      const link = page.locator(`ol.toc a[href="#failure-${FAILING}"]`);
      expect(await link.isVisible()).toBe(true);
      await screenshot(page, 'html-report');

      // The list at the top leads to the failure, which is then on screen.
      await link.click();
      const failure = page.locator(`#failure-${FAILING}`);
      const heading = await failure.locator('h3').boundingBox();
      const viewport = page.viewportSize();
      expect(heading && viewport && heading.y >= 0 && heading.y < viewport.height).toBe(true);
      expect(await failure.locator('h3').innerText()).toMatch(new RegExp(`^✗ ${FAILING}: `));
      const curl = failure.locator('pre.curl').first();
      expect(await curl.isVisible()).toBe(true);
      expect(await curl.innerText()).toContain(`'${server.url}/pets?status=available`);
      expect(await curl.innerText()).toContain(`-H 'authorization: Bearer ${REDACTED_KEY}'`);
      expect(await failure.locator('pre.response').first().isVisible()).toBe(true);

      expect(offPage).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
