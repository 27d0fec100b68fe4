import type { SuiteReport } from '../run-suite.js';
import type { RuleResult } from '../types.js';
import { OPERATION_ORDER } from './excerpt.js';
import { escapeHtml } from '../../shared/html-escape.js';
import { driftSection } from './drift-html.js';
import { element, statementHtml, textElement } from './html-element.js';
import { counted, failureAnchor, failureArticle, findingBlock, ruleAnchor, ruleTags } from './html-finding.js';
import { HTML_REPORT_STYLE } from './html-style.js';

/** What the run's report does not hold but the page shows. */
export interface ReportAbout {
  /** The harness's version (package.json). */
  version: string;
}

/**
 * Nothing is fetched, nothing runs: the page is read offline and shows text
 * that came from the server under test, so even markup that slipped through
 * escaping could neither load a resource nor run a script.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * One self-contained HTML page (inline style, no script, no network): the
 * summary and verdict, the failures first, with a list linking to each, the
 * coverage matrix, the rules by operation, and what the target answered
 * where the interface is silent. Every text is escaped (src/shared/html-escape.ts).
 */
export function htmlReport(report: SuiteReport, about: ReportAbout): string {
  const failed = report.results.filter((r) => r.status === 'failed');
  const title = `Contract tests ${report.ok ? 'passed' : report.wrongTarget ? 'not judged' : 'failed'}: ${report.target.baseUrl}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8"/>',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}"/>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
    textElement('title', {}, title),
    element('style', {}, HTML_REPORT_STYLE),
    '</head>',
    '<body>',
    summarySection(report, about),
    failuresSection(failed),
    report.wrongTarget ? '' : coverageSection(report),
    rulesSection(report.results),
    silentSection(report),
    driftSection(report.drift),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function summarySection(report: SuiteReport, about: ReportAbout): string {
  const { wrongTarget } = report;
  // A wrong target (wrong-target.ts) is judged neither passed nor failed: its one line leads the page, as it leads the terminal.
  const verdict = report.ok ? 'passed' : wrongTarget ? 'not judged' : 'failed';
  const facts: Array<[string, string, string]> = [
    ['target', 'Target', `${report.target.baseUrl}${report.target.readOnly ? ' (read-only: the writing rules are skipped)' : ''}`],
    ['seed', 'Seed', `${report.seed} (--seed ${report.seed} sends the same generated cases)`],
    ['examples', 'Random cases', `${report.examples} per generated rule`],
    ['started', 'Started', report.startedAt],
    ['duration', 'Duration', `${(report.ms / 1000).toFixed(1)} s`],
    ['harness', 'Harness', `animal-store-contract ${about.version}`],
    ['verdict', 'Verdict', verdictText(report)],
  ];
  return element('header', { id: 'summary' }, [
    element('h1', {}, `Contract tests ${textElement('span', { class: `verdict ${report.ok ? 'passed' : 'failed'}` }, verdict)}`),
    ...(wrongTarget ? [textElement('p', { class: 'failed', id: 'wrong-target' }, wrongTarget.message)] : []),
    element('dl', { class: 'facts' }, facts.map(([id, label, text]) => `${textElement('dt', {}, label)}${textElement('dd', { id }, text)}`).join('\n')),
    // A wrong target's counts would claim a coverage its rules never judged.
    ...(wrongTarget ? [] : [countsTable(report)]),
  ].join('\n'));
}

function countsTable({ summary: s, coverage }: SuiteReport): string {
  const counts = (['passed', 'failed', 'skipped', 'warnings'] as const).map((name) => [name, s[name]] as const);
  return element('table', { class: 'counts', id: 'counts' }, [
    element('tr', {}, [...counts.map(([name]) => textElement('th', {}, name)), textElement('th', {}, 'coverage')].join('')),
    element('tr', {}, [
      ...counts.map(([name, count]) => textElement('td', { class: count > 0 && name !== 'passed' ? (name === 'warnings' ? 'warning' : name) : undefined, 'data-count': name }, String(count))),
      textElement('td', { 'data-count': 'coverage' }, `${coverage.covered}/${coverage.total}`),
    ].join('')),
  ].join('\n'));
}

function verdictText({ ok, wrongTarget, summary: s }: SuiteReport): string {
  if (ok) return 'passed: exit code 0';
  if (wrongTarget) return `not judged: exit code 2 (${wrongTarget.message}); the rules below are what each request got`;
  return `failed: exit code 1 (${counted(s.contractFailed, 'contract rule')} and ${counted(s.failed - s.contractFailed, 'advisory rule')} failed)`;
}

/** The failures first: a list linking to each, then each in full. */
function failuresSection(failed: readonly RuleResult[]): string {
  if (failed.length === 0) return element('section', { id: 'failures' }, `${textElement('h2', {}, 'Failures')}\n${textElement('p', { class: 'passed' }, 'No rule failed.')}`);
  const toc = failed.map((r) => {
    const first = r.findings.find((f) => f.level === 'error');
    return element('li', {}, `${element('a', { href: `#${failureAnchor(r.id)}` }, escapeHtml(r.id))} (${escapeHtml(r.operation)}): ${escapeHtml(first?.message ?? 'failed')}`);
  });
  return element('section', { id: 'failures' }, [
    textElement('h2', {}, `Failures (${failed.length})`),
    element('ol', { class: 'toc' }, toc.join('\n')),
    ...failed.map(failureArticle),
  ].join('\n'));
}

/**
 * The report's coverage, as the run computed it: one row per operation, one
 * column per documented status; a cell names the rules whose requests got it.
 */
function coverageSection({ coverage }: SuiteReport): string {
  const statuses = [...new Set(coverage.pairs.map((p) => p.status))].sort((a, b) => a - b);
  const rows = OPERATION_ORDER.map((operation) => {
    const pairs = coverage.pairs.filter((p) => p.operation === operation);
    const first = pairs[0];
    const head = element('th', { scope: 'row' }, `${escapeHtml(operation)}${first ? `<br/>${textElement('code', {}, `${first.method} ${first.path}`)}` : ''}`);
    const cells = statuses.map((status) => {
      const pair = pairs.find((p) => p.status === status);
      if (!pair) return textElement('td', { class: 'none', title: 'not documented' }, '–');
      const id = `coverage-${operation}-${status}`;
      if (pair.rules.length === 0) return textElement('td', { class: 'uncovered', id }, 'NOT COVERED');
      const links = pair.rules.map((rule) => element('a', { href: `#${ruleAnchor(rule)}` }, escapeHtml(rule))).join(', ');
      return element('td', { class: 'covered', id }, element('details', {}, `${textElement('summary', {}, `✓ ${counted(pair.rules.length, 'rule')}`)}${links}`));
    });
    return element('tr', {}, [head, ...cells].join(''));
  });
  const header = element('tr', {}, [textElement('th', {}, 'operation'), ...statuses.map((status) => textElement('th', {}, String(status)))].join(''));
  return element('section', { id: 'coverage' }, [
    textElement('h2', {}, `Coverage: ${coverage.covered}/${coverage.total} documented request/response pairs`),
    textElement('p', {}, 'The pairs dredd-transactions compiles from the contract document; a pair is covered when a request of this run got that status from that operation.'),
    element('table', { class: 'coverage' }, [header, ...rows].join('\n')),
  ].join('\n'));
}

/** Every rule under its operation: verdict, tags, and the statement it checks. */
function rulesSection(results: readonly RuleResult[]): string {
  const groups = OPERATION_ORDER.map((operation) => {
    const rows = results.filter((r) => r.operation === operation).map(ruleRow);
    if (rows.length === 0) return '';
    const header = element('tr', {}, ['rule', 'verdict', 'statement'].map((name) => textElement('th', {}, name)).join(''));
    return element('section', { id: `operation-${operation}` }, `${textElement('h3', {}, operation)}\n${element('table', { class: 'rules' }, [header, ...rows].join('\n'))}`);
  });
  return element('section', { id: 'rules' }, [textElement('h2', {}, 'Rules by operation'), ...groups.filter(Boolean)].join('\n'));
}

function ruleRow(result: RuleResult): string {
  const warnings = result.findings.filter((f) => f.level === 'warning');
  const verdict = [
    textElement('strong', { class: result.status }, result.status),
    result.status === 'failed' ? ` ${element('a', { href: `#${failureAnchor(result.id)}` }, 'details')}` : '',
    result.reason ? textElement('p', {}, result.reason) : '',
    textElement('p', { class: 'tags' }, ruleTags(result)),
    // A failed rule's warnings are shown with its failure.
    warnings.length > 0 && result.status !== 'failed'
      ? element('details', { class: 'warnings' }, `${textElement('summary', { class: 'warning' }, counted(warnings.length, 'warning'))}${warnings.map((w) => findingBlock(w)).join('\n')}`)
      : '',
  ].join('');
  return element('tr', { id: ruleAnchor(result.id), class: `rule rule-${result.status}` }, [
    element('td', {}, `${textElement('code', {}, result.id)}<br/>${escapeHtml(result.title)}`),
    element('td', {}, verdict),
    element('td', { class: 'statement' }, `${textElement('strong', {}, result.statement.section)}: ${statementHtml(result.statement.text)}`),
  ].join(''));
}

/** What the target answered where the interface is silent (the silent log of the run). */
function silentSection({ silent }: SuiteReport): string {
  if (silent.length === 0) return '';
  const entries = silent.map((entry) =>
    element('li', {}, `${escapeHtml(entry.question)}${element('ul', {}, entry.answers.map((a) => element('li', {}, `${escapeHtml(a.answer)}${a.count > 1 ? ` (${a.count} times)` : ''}${textElement('pre', {}, `e.g. ${a.example}`)}`)).join(''))}`),
  );
  return element('section', { id: 'silent' }, `${textElement('h2', {}, 'Where the interface is silent, this target answered')}\n${element('ul', {}, entries.join('\n'))}`);
}
