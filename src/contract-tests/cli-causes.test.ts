import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, it } from 'vitest';
import { brokenStatements, CONTRACT_BIN, MOCK_BIN, parsePretty, startApiServer, startRawServer, type TestServer } from '../../test/support/contract-cli.js';
import { useContractRun } from '../../test/support/contract-run-fixture.js';
import { byId, parseHtml, select, textOf, type HtmlElement } from '../../test/support/html-tree.js';
import { childEnv, requireBuilt, type Run } from '../../test/support/processes.js';
import type { SuiteReport } from '../verdict/report.js';

/**
 * Failures grouped by cause, through the built harness against the built
 * mock in its `flaky` scenario (every third request it counts gets 503 with
 * Retry-After): every reporter says one cause, the rules it affected and one
 * example, and prints no finding in full twice; `--reporter summary` says it
 * in at most 60 lines, for that run and for others.
 */
const KEY = 'contract-causes-key';
const ADMIN_KEY = 'contract-causes-admin';
const SUMMARY_MAX_LINES = 60;
const { processes, servers, dir } = useContractRun('contract-causes');
const kept = <T extends TestServer>(server: T): T => (servers.push(server), server);
const files = () => ({ pretty: join(dir(), 'flaky', 'pretty.txt'), json: join(dir(), 'flaky', 'report.json'), html: join(dir(), 'flaky', 'report.html'), junit: join(dir(), 'flaky', 'report.xml') });
const lines = (text: string) => text.trimEnd().split('\n');

let run: Run;
let report: SuiteReport;
/** Requests the mock answered before its stubs: without an accepted key, preflights (its anonymous journal). */
let anonymous: number;

beforeAll(async () => {
  requireBuilt(MOCK_BIN);
  const [, url] = await processes.start([MOCK_BIN, '--port', '0', '--scenario', 'flaky', '--no-watch', '--quiet', '--api-key', KEY, '--admin-key', ADMIN_KEY, '--journal-size', '10000'], /listening on (http:\/\/[^\s"]+\/v1)/);
  const f = files();
  run = await processes.node(
    [CONTRACT_BIN, '--base-url', url as string, '--api-key', KEY, '--reporter', 'summary', '--reporter', 'pretty', '--output', f.pretty, '--reporter', 'json', '--output', f.json, '--reporter', 'html', '--output', f.html, '--reporter', 'junit', '--output', f.junit],
    { env: childEnv(), cwd: dir() },
  );
  report = JSON.parse(readFileSync(f.json, 'utf8')) as SuiteReport;
  const journal = await fetch(String(url).replace(/\/v1$/, '/__mock/journal/anonymous'), { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const held = (await journal.json()) as { capacity: number; entries: unknown[] };
  if (held.entries.length >= held.capacity) throw new Error('the anonymous journal is full: raise --journal-size');
  anonymous = held.entries.length;
}, 120_000);

describe('the flaky scenario (the built mock): one cause', () => {
  it('JSON: every failing finding has one cause, the 503 with Retry-After, on about 1 request in 3 or 4, naming every failed rule', ({ expect }) => {
    expect(run.code, run.stderr).toBe(1);
    const failing = report.causes.filter((c) => c.level === 'error');
    expect(failing.map((c) => c.cause)).toEqual(['answered 503 service_unavailable with Retry-After']);
    const [cause] = failing;
    if (!cause) throw new Error('no cause');
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.length).toBeGreaterThanOrEqual(10);
    expect([...cause.rules].sort()).toEqual([...failed].sort());
    for (const r of report.results) for (const f of r.findings.filter((x) => x.level === 'error')) expect(f.cause, `${r.id}: ${f.message}`).toBe(cause.id);
    // The mock counts every third request it serves past authentication: of those, about 1 in 3.
    const { matching, total } = cause.requests ?? { matching: 0, total: 0 };
    expect(anonymous).toBeGreaterThan(0);
    expect(matching / (total - anonymous)).toBeGreaterThan(1 / 4);
    expect(matching / (total - anonymous)).toBeLessThan(1 / 2.5);
    expect(cause.operations).toEqual(['GET /pets', 'POST /pets', 'GET /pets/{petId}']);
    expect(cause.findings).toBe(report.results.reduce((n, r) => n + r.findings.filter((f) => f.cause === cause.id).length, 0));
  });

  it(`summary on stdout: the verdict, the cause with its rate and rules, one replay line, where the files are; at most ${SUMMARY_MAX_LINES} lines`, ({ expect }) => {
    const out = lines(run.stdout);
    expect(out.length).toBeLessThanOrEqual(SUMMARY_MAX_LINES);
    const cause = report.causes[0];
    expect(out).toContain(`Verdict: failed: exit code 1 (${report.summary.contractFailed} contract rule${report.summary.contractFailed === 1 ? '' : 's'} and ${report.summary.failed - report.summary.contractFailed} advisory rule${report.summary.failed - report.summary.contractFailed === 1 ? '' : 's'} failed, from 1 cause)`);
    expect(run.stdout).toMatch(new RegExp(`^ {2}cause-1: answered 503 service_unavailable with Retry-After: on ${cause?.requests?.matching} of ${cause?.requests?.total} requests \\(about 1 in \\d\\), ${cause?.rules.length} rules affected`, 'm'));
    expect(out.filter((line) => line.startsWith('    replay: curl '))).toHaveLength(1);
    expect(run.stdout).toContain(`Full reports:\n  ${files().pretty} (pretty)\n  ${files().json} (json)\n  ${files().html} (html)\n  ${files().junit} (junit)\n`);
    expect(run.stdout).not.toContain('response: 503');
  });

  it('pretty: the cause once with its example in full, then each rule with one line per finding naming it', ({ expect }) => {
    const text = readFileSync(files().pretty, 'utf8');
    const pretty = parsePretty(text);
    expect([...pretty.causes.keys()]).toEqual(['cause-1']);
    // One example in full: one response printed, however many rules failed.
    expect(text.match(/response: 503/g)).toHaveLength(1);
    for (const [id, rule] of pretty.rules) {
      if (rule.status !== 'failed') continue;
      const findings = rule.text.split('\n').filter((line) => /^ {6}(FAIL|warn) /.test(line));
      expect(findings.length, id).toBe(report.results.find((r) => r.id === id)?.findings.length);
      for (const line of findings) expect(line, id).toMatch(/ \[cause-1\]$/);
    }
    // The verdict and the cause before the rules.
    expect(text.indexOf('Verdict: failed')).toBeLessThan(text.indexOf('  cause-1: '));
    expect(text.indexOf('  cause-1: ')).toBeLessThan(text.indexOf('\nlistPets\n'));
  });

  it('HTML: verdict and coverage first, then one cause with its rules linked and one example open, every other finding folded once', ({ expect }) => {
    const html = readFileSync(files().html, 'utf8');
    const page = parseHtml(html);
    expect(html.indexOf('id="coverage"')).toBeLessThan(html.indexOf('id="failures"'));
    expect(textOf(byId(page, 'verdict'))).toMatch(/^failed: exit code 1 .*from 1 cause\)$/);
    const articles = select(byId(page, 'failures'), 'article');
    expect(articles.map((a) => a.attributes.id)).toEqual(['cause-1']);
    const article = articles[0] as HtmlElement;
    expect(select(article, 'div', 'finding').filter((d) => select(d, 'p', 'message').length > 0)).toHaveLength(1);
    const cause = report.causes[0];
    expect(select(article, 'details', 'finding-line')).toHaveLength((cause?.findings ?? 0) - 1);
    expect(select(select(article, 'p', 'rules-affected')[0] as HtmlElement, 'a')).toHaveLength(cause?.rules.length ?? 0);
    // Operations by their path template, not an id.
    expect(textOf(select(article, 'p', 'operations')[0] as HtmlElement)).toBe('Seen on GET /pets, POST /pets, GET /pets/{petId}');
    expect(html).not.toContain('/pets/1</code>');
  });

  it('JUnit: every failed rule a <failure> naming the cause; the example in full in one test case only', ({ expect }) => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(readFileSync(files().junit, 'utf8')) as {
      testsuites: { testsuite: Array<{ testcase?: Array<{ name: string; failure?: { message: string; '#text': string } }> }> };
    };
    const failures = parsed.testsuites.testsuite.flatMap((s) => s.testcase ?? []).flatMap((c) => (c.failure ? [c.failure] : []));
    expect(failures).toHaveLength(report.summary.failed);
    for (const failure of failures) expect(failure.message).toMatch(/ \(cause-1: answered 503 service_unavailable with Retry-After, \d+ rules affected\)$/);
    expect(failures.filter((f) => f['#text'].includes('response: 503'))).toHaveLength(1);
  });
});

describe(`--reporter summary stays within ${SUMMARY_MAX_LINES} lines`, () => {
  const summary = (url: string, extra: string[] = []) => processes.node([CONTRACT_BIN, '--base-url', url, '--api-key', KEY, '--reporter', 'summary', ...extra], { env: childEnv(), cwd: dir() });

  it('a server that breaks many statements, in many ways: the causes shown, the rest counted', async ({ expect }) => {
    const server = kept(
      await startRawServer((request, response) => {
        // Everything accepted, answered with a body of the wrong shape: most rules fail, for many causes.
        response.writeHead(request.method === 'POST' ? 200 : 200, { 'content-type': 'text/plain' });
        response.end(`you asked for ${request.url}`);
      }),
    );
    const result = await summary(server.url);
    expect(result.code, result.stderr).toBe(1);
    const out = lines(result.stdout);
    expect(out.length).toBeLessThanOrEqual(SUMMARY_MAX_LINES);
    expect(result.stdout).toMatch(/^ {2}and \d+ more causes?, in the full reports$/m);
    expect(result.stdout).toContain('Every finding in full: --reporter pretty, or --reporter html --output report.html');
  });

  it('the mock breaking a few statements: each cause shown', async ({ expect }) => {
    const server = kept(await startApiServer({ apiKey: KEY, wrap: brokenStatements(KEY) }));
    const json = join(dir(), 'broken.json');
    const result = await summary(server.url, ['--read-only', '--reporter', 'json', '--output', json]);
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result.stdout).length).toBeLessThanOrEqual(SUMMARY_MAX_LINES);
    const broken = JSON.parse(readFileSync(json, 'utf8')) as SuiteReport;
    // The first causes in full (a line past the summary's width is cut: its start names the cause), then how many more.
    const failing = broken.causes.filter((c) => c.level === 'error');
    for (const cause of failing.slice(0, 8)) expect(result.stdout).toContain(`  ${cause.id}: ${cause.cause}`.slice(0, 200));
    if (failing.length > 8) expect(result.stdout).toContain(`  and ${failing.length - 8} more cause${failing.length - 8 === 1 ? '' : 's'}, in the full reports`);
  });

  it('a wrong target: its one line on stderr, and on stdout the verdict that says so', async ({ expect }) => {
    const server = kept(
      await startRawServer((_request, response) => {
        response.writeHead(404, { 'content-type': 'text/html' });
        response.end('<h1>Not Found</h1>');
      }),
    );
    const result = await summary(server.url);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/every request answered 404: is the base URL right\?/);
    expect(result.stdout).toMatch(/^Verdict: not judged: exit code 2 \(every request answered 404: is the base URL right\? /m);
    expect(lines(result.stdout).length).toBeLessThanOrEqual(SUMMARY_MAX_LINES);
  });
});
