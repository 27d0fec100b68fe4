import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../shared/package-root.js';
import { BROKEN_RULES, brokenStatements, CONTRACT_BIN, startApiServer, startRawServer } from '../../../test/support/contract-cli.js';
import { byId, parseHtml, select, textOf, type HtmlElement } from '../../../test/support/html-tree.js';
import { childEnv, type Run } from '../../../test/support/processes.js';
import { REDACTED_KEY } from '../../contract-tests/http-client.js';
import { allRules } from '../../contract-tests/rules/index.js';
import { useContractRun } from '../../../test/support/contract-run-fixture.js';
import type { SuiteReport } from '../report.js';

/** The Markdown code spans of a statement of the interface (`limit`), and the statement as read with them shown as code. */
const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
const unticked = (text: string): string => text.replace(/`([^`\n]+)`/g, '$1');

/**
 * `--reporter html --output FILE`: the built harness in a child process,
 * against the real mock and faulty servers over real HTTP, writing the HTML
 * report beside the JSON and JUnit ones; the page is read back as a tree
 * (test/support/html-tree.ts) and checked against the JSON report of the
 * same run.
 */
const KEY = 'html-report-key';
const VERSION = packageVersion();
const { processes, servers, dir } = useContractRun('html-report');

interface Reports {
  run: Run;
  html: string;
  page: HtmlElement;
  json: SuiteReport;
  junit: string;
}

/** Runs the harness against `url` with the three file reporters in one run, and reads them back. */
async function runAll(name: string, url: string, key: string, extra: string[] = []): Promise<Reports> {
  const [html, json, xml] = ['html', 'json', 'xml'].map((ext) => join(dir(), name, `report.${ext}`)) as [string, string, string];
  const args = ['--base-url', url, '--api-key', key, ...extra, '--reporter', 'html', '--output', html, '--reporter', 'json', '--output', json, '--reporter', 'junit', '--output', xml];
  const run = await processes.node([CONTRACT_BIN, ...args], { env: childEnv(), cwd: dir() });
  const text = readFileSync(html, 'utf8');
  return { run, html: text, page: parseHtml(text), json: JSON.parse(readFileSync(json, 'utf8')) as SuiteReport, junit: readFileSync(xml, 'utf8') };
}

const text = (page: HtmlElement, id: string): string => textOf(byId(page, id));
const classes = (element: HtmlElement): string[] => (element.attributes.class ?? '').split(' ');

/** What every report must show as the JSON report of the same run does: target, seed, date, version, counts, verdict. */
function expectSummaryOfJson({ page, json }: Reports, exitCode: number): void {
  expect(text(page, 'target').split(' ')[0]).toBe(json.target.baseUrl);
  expect(text(page, 'seed')).toMatch(new RegExp(`^${json.seed} \\(--seed ${json.seed} `));
  expect(text(page, 'started')).toBe(json.startedAt);
  expect(text(page, 'harness')).toBe(`animal-store-contract ${VERSION}`);
  expect(text(page, 'verdict')).toMatch(new RegExp(`^${json.ok ? 'passed' : 'failed'}: exit code ${exitCode}`));
  const counts = Object.fromEntries(select(byId(page, 'counts'), 'td').map((cell) => [cell.attributes['data-count'], textOf(cell)]));
  const { passed, failed, skipped, warnings } = json.summary;
  expect(counts).toEqual({ passed: `${passed}`, failed: `${failed}`, skipped: `${skipped}`, warnings: `${warnings}`, coverage: `${json.coverage.covered}/${json.coverage.total}` });
}

/** The page fetches nothing: no attribute points off the page, and the only URLs in it are the target's, as text. */
function expectNothingExternal({ html, page }: Reports, target: string): void {
  expect(['script', 'img', 'link', 'iframe', 'object'].flatMap((name) => select(page, name))).toEqual([]);
  // Should anything slip through, the page's own policy forbids loading and running it.
  const policy = select(page, 'meta').find((meta) => meta.attributes['http-equiv'] === 'Content-Security-Policy');
  expect(policy?.attributes.content).toMatch(/^default-src 'none';/);
  const linked = select(page, 'a').map((a) => a.attributes.href ?? '');
  expect(linked.filter((href) => !href.startsWith('#'))).toEqual([]);
  const all = (e: HtmlElement): HtmlElement[] => [e, ...e.children.flatMap((c) => (typeof c === 'string' ? [] : all(c)))];
  expect(all(page).filter((e) => 'src' in e.attributes)).toEqual([]);
  const urls = [...html.matchAll(/(?<field>[a-z-]+: )?(?<url>https?:\/\/[^\s'"<&]*)/gi)].map((m) => m.groups as { field?: string; url: string });
  expect(urls.length).toBeGreaterThan(0);
  // The target's origin (a request written another way spells the base path too: `/%761/pets`),
  // or the value of a field a request line sends (a browser's Origin or Referer), as text.
  // The scheme in any case (`HTTP://`, RFC 3986 §3.1) is the target's too.
  for (const { field, url } of urls) expect(url.toLowerCase().startsWith(new URL(target).origin) || field !== undefined, url).toBe(true);
}

describe.concurrent('--reporter html (the built CLI)', { timeout: 60_000 }, () => {
  it('against the mock: exit 0, with the JSON and JUnit reports of the same run; the summary, coverage and rules of the JSON report', async () => {
    const server = await startApiServer({ apiKey: KEY });
    servers.push(server);
    const reports = await runAll('mock', server.url, KEY);
    const { run, page, json, junit } = reports;
    expect(run.code, run.stderr).toBe(0);
    expect(XMLValidator.validate(junit)).toBe(true);
    const root = (new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit) as { testsuites: { tests: string } }).testsuites;
    expect(Number(root.tests)).toBe(allRules.length);
    expect(json.results).toHaveLength(allRules.length);

    expectSummaryOfJson(reports, 0);
    expect(select(byId(page, 'failures'), 'article')).toEqual([]);
    expect(text(page, 'failures')).toContain('No rule failed.');
    expectNothingExternal(reports, server.url);

    // The coverage matrix: each documented pair's cell links to the rules of the JSON report's coverage.
    expect(json.coverage.covered).toBe(json.coverage.total);
    for (const pair of json.coverage.pairs) {
      const cell = byId(page, `coverage-${pair.operation}-${pair.status}`);
      expect(classes(cell)).toContain('covered');
      expect(select(cell, 'a').map((a) => a.attributes.href)).toEqual(pair.rules.map((id) => `#rule-${id}`));
    }
    // The rules under their operations, in the report's order, each with its verdict and statement.
    for (const operation of ['listPets', 'createPet', 'getPet']) {
      const rows = select(byId(page, `operation-${operation}`), 'tr', 'rule');
      const results = json.results.filter((r) => r.operation === operation);
      expect(rows.map((row) => row.attributes.id)).toEqual(results.map((r) => `rule-${r.id}`));
      for (const [i, result] of results.entries()) {
        const row = rows[i] as HtmlElement;
        expect(classes(row)).toContain('rule-passed');
        expect(textOf(row)).toContain(`${result.id}${unticked(result.title)}`);
        const statement = select(row, 'td', 'statement')[0] as HtmlElement;
        expect(textOf(statement)).toBe(`${result.statement.section}: ${unticked(result.statement.text)}`);
        // The interface's `code` spans are shown as code, not as backticks.
        expect(select(statement, 'code').map(textOf)).toEqual(codeSpans(result.statement.text));
      }
    }
    expect(json.results.some((r) => codeSpans(r.statement.text).length > 0)).toBe(true);
    // The interface's Markdown is rendered wherever it is shown (statements, titles, the silent points' questions): no backtick is left as text.
    expect(json.results.some((r) => codeSpans(r.title).length > 0)).toBe(true);
    for (const id of ['rules', 'silent']) expect(textOf(byId(page, id)), id).not.toContain('`');
  });

  it('against a server that breaks some statements: the coverage, then the failures by cause, each with the rules it affected and one example in full; every finding once', async () => {
    const server = await startApiServer({ apiKey: KEY, wrap: brokenStatements(KEY) });
    servers.push(server);
    const reports = await runAll('broken', server.url, KEY, ['--read-only']);
    const { run, page, json } = reports;
    expect(run.code, run.stderr).toBe(1);
    expectSummaryOfJson(reports, 1);
    expectNothingExternal(reports, server.url);

    const failed = json.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.id).sort()).toEqual([...BROKEN_RULES.failed('read-only, 30 animals')].sort());
    // The verdict and the coverage come before the first failure.
    const order = ['summary', 'coverage', 'failures', 'rules'].map((id) => reports.html.indexOf(`id="${id}"`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // The list at the top links to each cause that failed a rule, in the report's order.
    const failing = json.causes.filter((c) => c.level === 'error');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.length).toBeLessThan(failed.length);
    const section = byId(page, 'failures');
    expect(textOf(select(section, 'h2')[0] as HtmlElement)).toBe(`Failures by cause (${failing.length})`);
    expect(select(select(section, 'ol', 'toc')[0] as HtmlElement, 'a').map((a) => a.attributes.href)).toEqual(failing.map((c) => `#${c.id}`));

    const curls: string[] = [];
    for (const cause of failing) {
      const article = byId(page, cause.id);
      expect(textOf(select(article, 'h3')[0] as HtmlElement)).toBe(`✗ ${cause.id}: ${unticked(cause.cause)}`);
      expect(select(select(article, 'p', 'rules-affected')[0] as HtmlElement, 'a').map((a) => a.attributes.href)).toEqual(cause.rules.map((id) => `#rule-${id}`));
      // The example: the statement of its rule, its finding, curl line (key redacted), request and response.
      const rule = json.results.find((r) => r.id === cause.example.rule);
      if (!rule) throw new Error(`${cause.id}: no rule ${cause.example.rule}`);
      expect(textOf(select(article, 'blockquote', 'statement')[0] as HtmlElement)).toBe(`The interface (${rule.statement.section}) says:${unticked(rule.statement.text)}`);
      const example = select(article, 'div', 'finding')[0] as HtmlElement;
      const { finding } = cause.example;
      expect(textOf(select(example, 'p', 'message')[0] as HtmlElement)).toBe(`${finding.level === 'error' ? 'Failed' : 'Warning'}: ${unticked(finding.message)}${finding.path ? ` (at ${finding.path})` : ''}`);
      const request = (finding as { request?: string }).request;
      const exchange = rule.exchanges.find((e) => `${e.request.method} ${e.request.url}` === request);
      if (!exchange?.response) throw new Error(`${cause.id}: no response recorded for ${request}`);
      expect(textOf(select(example, 'pre', 'curl')[0] as HtmlElement)).toMatch(/^curl -sS -i /);
      curls.push(textOf(select(example, 'pre', 'curl')[0] as HtmlElement));
      expect(textOf(select(example, 'pre', 'request')[0] as HtmlElement).split('\n')[0]).toBe(request);
      expect(textOf(select(example, 'pre', 'response')[0] as HtmlElement).split('\n')[0]).toBe(String(exchange.response.status));
    }

    // A rule that sends the key shows it redacted in its curl line.
    expect(curls.some((curl) => curl.includes(`-H 'authorization: Bearer ${REDACTED_KEY}'`))).toBe(true);

    // Every finding of the JSON report is on the page once: a cause's example in full, the others one line each (folded).
    const shown = [...select(page, 'p', 'message').map(textOf), ...select(page, 'details', 'finding-line').map((d) => textOf(select(d, 'summary')[0] as HtmlElement).replace(/^[a-z0-9-]+: /, ''))].sort();
    const all = json.results.flatMap((r) => r.findings.map((f) => `${f.level === 'error' ? 'Failed' : 'Warning'}: ${unticked(f.message)}${f.path ? ` (at ${f.path})` : ''}`)).sort();
    expect(shown).toEqual(all);

    // Each failed rule's row names the causes of its findings, linked.
    for (const result of failed) {
      const causes = [...new Set(result.findings.map((f) => f.cause))];
      expect(select(select(byId(page, `rule-${result.id}`), 'p', 'causes')[0] as HtmlElement, 'a').map((a) => a.attributes.href), result.id).toEqual(causes.map((c) => `#${c}`));
    }

    // The skipped rule with its reason; the advisory rule's warnings under a cause of their own, linked from its row.
    const [skipped] = BROKEN_RULES.skipped;
    const skippedRow = byId(page, `rule-${skipped}`);
    expect(classes(skippedRow)).toContain('rule-skipped');
    expect(textOf(skippedRow)).toContain(json.results.find((r) => r.id === skipped)?.reason as string);
    const [warned] = BROKEN_RULES.warned;
    const warnings = json.results.find((r) => r.id === warned)?.findings.filter((f) => f.level === 'warning') ?? [];
    expect(warnings.length).toBeGreaterThan(0);
    const warningCause = json.causes.find((c) => c.id === warnings[0]?.cause);
    expect(warningCause?.level).toBe('warning');
    expect(textOf(select(byId(page, `rule-${warned}`), 'p', 'causes')[0] as HtmlElement)).toBe(`warned by ${warningCause?.id}`);
    expect(textOf(byId(page, 'warnings'))).toContain(`${warningCause?.id}: ${unticked(warningCause?.cause ?? '')}`);
  });

  it('without --output the page goes to stdout, as the other reporters do, and the pretty report is not printed', async () => {
    const server = await startApiServer({ apiKey: KEY });
    servers.push(server);
    const run = await processes.node([CONTRACT_BIN, '--base-url', server.url, '--api-key', KEY, '--only', 'list-limit-1', '--reporter', 'html'], { env: childEnv(), cwd: dir() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^<!DOCTYPE html>\n/);
    const page = parseHtml(run.stdout);
    expect(classes(byId(page, 'rule-list-limit-1'))).toContain('rule-passed');
    expect(text(page, 'verdict')).toBe('passed: exit code 0');
  });

  it('a rule with many findings of one cause: its example open, the others folded one line each under how many they are, none lost', async () => {
    // Any key accepted: every near-miss of the key is a finding, and each is the same cause (200 where 401 was due).
    const server = await startRawServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
    servers.push(server);
    const rule = 'auth-near-misses-list-pets';
    const { run, page, json } = await runAll('many', server.url, KEY, ['--only', rule]);
    expect(run.code, run.stderr).toBe(1);
    const findings = json.results.find((r) => r.id === rule)?.findings ?? [];
    expect(findings.length).toBeGreaterThan(3);
    expect(json.causes).toHaveLength(1);
    const [cause] = json.causes;
    expect(cause?.findings).toBe(findings.length);

    const article = byId(page, cause?.id ?? '');
    expect(select(article, 'p', 'message')).toHaveLength(1);
    const [folded, ...others] = select(article, 'details', 'more-findings');
    expect(others).toEqual([]);
    if (!folded) throw new Error('no folded findings');
    expect(folded.attributes.open).toBeUndefined();
    expect(textOf(select(folded, 'summary')[0] as HtmlElement)).toBe(`${findings.length - 1} more findings of this cause`);
    const lines = select(folded, 'details', 'finding-line');
    expect(lines).toHaveLength(findings.length - 1);
    // Each folded finding holds its exchange, without repeating its headline.
    for (const line of lines) {
      expect(select(line, 'p', 'message')).toEqual([]);
      expect(select(line, 'pre', 'curl')).toHaveLength(1);
    }
    // Every finding of the JSON report, in its order: the example, then the folded ones.
    const texts = [textOf(select(article, 'p', 'message')[0] as HtmlElement), ...lines.map((l) => textOf(select(l, 'summary')[0] as HtmlElement).replace(`${rule}: `, ''))];
    expect(texts).toEqual(findings.map((f) => `Failed: ${f.message}${f.path ? ` (at ${f.path})` : ''}`));
  });

  it('a server answering markup: it shows as text, nothing of it runs or loads, and the key appears nowhere in the file', async () => {
    const secret = 'sk-live-HTML-SECRET-42';
    const hostile = '</pre></td></table><script>document.title="owned"</script><img src="https://evil.example/x.png"><a href="http://evil.example/">x</a> &amp; \u0000\u0007';
    // Bidirectional controls that would reorder the line shown: "invoice-\u202Efdp.exe" reads as "invoice-exe.pdf".
    const reordering = 'invoice-\u202Efdp.exe\u202C \u2066isolated\u2069 \u200Fmark\u200E \u061C';
    // Any key accepted and echoed back in a header; every answer the same markup.
    const server = await startRawServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'x-seen-authorization': request.headers.authorization ?? '', 'x-note': '<b onclick="alert(1)">bold</b>' });
      response.end(`${hostile} ${reordering}`);
    });
    servers.push(server);
    const { run, html, page, json } = await runAll('hostile', server.url, secret, ['--only', 'list-limit-1,auth-missing-key-list-pets']);
    expect(run.code, run.stderr).toBe(1);
    expect(html.includes(secret)).toBe(false);
    expect(html).not.toMatch(/<script|<img|<\/pre><\/td>/i);
    expect(select(page, 'script')).toEqual([]);
    expect(select(page, 'img')).toEqual([]);
    expect(select(page, 'a').filter((a) => !(a.attributes.href ?? '').startsWith('#'))).toEqual([]);

    const cause = json.causes.find((c) => c.example.rule === 'list-limit-1' && c.example.finding.level === 'error');
    const finding = select(byId(page, cause?.id ?? ''), 'div', 'finding-error')[0] as HtmlElement;
    const response = textOf(select(finding, 'pre', 'response')[0] as HtmlElement);
    // The body as the server sent it, its control characters shown as Control Pictures (U+2400, U+2407), its
    // bidirectional controls as their code points: none is left to reorder the page. (A header's value reaches
    // the harness as Latin-1, so only a body can hold them.)
    const shown = 'invoice-⟪U+202E⟫fdp.exe⟪U+202C⟫ ⟪U+2066⟫isolated⟪U+2069⟫ ⟪U+200F⟫mark⟪U+200E⟫ ⟪U+061C⟫';
    expect(response).toContain(`body: ${hostile.replace('\u0000\u0007', '\u2400\u2407')} ${shown}`);
    expect(html).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(response).toContain('x-note: <b onclick="alert(1)">bold</b>');
    expect(response).toContain(`x-seen-authorization: Bearer ${REDACTED_KEY}`);
    expect(textOf(select(finding, 'pre', 'curl')[0] as HtmlElement)).toContain(`-H 'authorization: Bearer ${REDACTED_KEY}'`);
    expect(textOf(select(finding, 'pre', 'request')[0] as HtmlElement)).toContain(`authorization: Bearer ${REDACTED_KEY}`);
  });
});
