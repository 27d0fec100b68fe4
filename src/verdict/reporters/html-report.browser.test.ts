import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenStatements, CONTRACT_BIN, startApiServer, startRawServer, type TestServer } from '../../../test/support/contract-cli.js';
import { openPage, screenshot } from '../../../test/support/browser.js';
import { childEnv, Processes, requireBuilt } from '../../../test/support/processes.js';
import { REDACTED_KEY } from '../../contract-tests/http-client.js';

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
      // The coverage matrix is on the first screen, above the failures.
      const coverage = await page.locator('#coverage').boundingBox();
      const viewport = page.viewportSize();
      expect(coverage && viewport && coverage.y < viewport.height).toBe(true);
      // FAILING's row names its cause; the list at the top links to it.
      const cause = (await page.locator(`#rule-${FAILING} p.causes a`).first().getAttribute('href')) ?? '';
      expect(cause).toMatch(/^#cause-\d+$/);
      const link = page.locator(`ol.toc a[href="${cause}"]`);
      expect(await link.isVisible()).toBe(true);
      await screenshot(page, 'html-report');

      // The list at the top leads to the cause, which is then on screen with its example.
      await link.click();
      const failure = page.locator(cause);
      const heading = await failure.locator('h3').boundingBox();
      expect(heading && viewport && heading.y >= 0 && heading.y < viewport.height).toBe(true);
      expect(await failure.locator('h3').innerText()).toMatch(new RegExp(`^✗ ${cause.slice(1)}: `));
      expect(await failure.locator('p.rules-affected').innerText()).toContain(FAILING);
      const curl = failure.locator('pre.curl').first();
      expect(await curl.isVisible()).toBe(true);
      // The example is one of the status pages' rules, which ask with status= among their parameters.
      expect(await curl.innerText()).toMatch(new RegExp(`'${server.url}/pets\\?[^']*status=`));
      expect(await curl.innerText()).toContain(`-H 'authorization: Bearer ${REDACTED_KEY}'`);
      expect(await failure.locator('pre.response').first().isVisible()).toBe(true);

      expect(offPage).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('folds a cause\'s findings after its example: hidden until the summary is clicked, with no script', { timeout: 60_000 }, async () => {
    // Any key accepted: each near-miss of the key is a finding of one rule, all of one cause.
    const lenient = await startRawServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
    const folding = join(tmp, 'folding.html');
    const rule = 'auth-near-misses-list-pets';
    try {
      const run = await processes.node([CONTRACT_BIN, '--base-url', lenient.url, '--api-key', KEY, '--only', rule, '--reporter', 'html', '--output', folding], { env: childEnv(), cwd: tmp });
      expect(run.code, run.stderr).toBe(1);
    } finally {
      await lenient.close();
    }
    const { page, close } = await openPage();
    try {
      await page.goto(pathToFileURL(folding).href);
      const article = page.locator('#cause-1');
      const example = article.locator(':scope > .finding');
      expect(await example.count()).toBe(1);
      expect(await example.isVisible()).toBe(true);
      const folded = article.locator('details.more-findings');
      const first = folded.locator('details.finding-line').first();
      expect(await first.isVisible()).toBe(false);
      await folded.locator(':scope > summary').click();
      expect(await first.isVisible()).toBe(true);
      // One line each; its exchange behind one more click.
      expect(await first.locator('pre.curl').isVisible()).toBe(false);
      await first.locator('summary').click();
      expect(await first.locator('pre.curl').innerText()).toContain(REDACTED_KEY);
    } finally {
      await close();
    }
  });
});
