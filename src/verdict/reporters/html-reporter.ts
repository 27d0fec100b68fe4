import type { Report, RuleResult, SuiteReport, VerdictReport } from '../report.js';
import { OPERATION_ORDER, counted } from './excerpt.js';
import { escapeHtml } from '../../shared/html-escape.js';
import { driftSection } from './drift-html.js';
import { element, markdownHtml, textElement } from './html-element.js';
import { ruleAnchor, ruleTags } from './html-finding.js';
import { causeAnchor, causesSection } from './html-cause.js';
import { failingCauses, verdictText, warningCauses } from './describe-cause.js';
import { HTML_REPORT_STYLE } from './html-style.js';
import type { Shown } from '../shown-report.js';
import { runFacts } from './describe-run.js';

/** What the run's report does not hold but the page shows. */
export interface ReportAbout {
  /** The harness's version (package.json). */
  version: string;
  /** The reports this run writes to files (`--reporter NAME --output FILE`), which a short report points to. */
  files?: Array<{ name: string; path: string }>;
  /** The contract document the run checked against, relative to the working directory: what annotations point at. */
  document?: string;
}

/**
 * Nothing is fetched, nothing runs: the page is read offline and shows text
 * that came from the server under test, so even markup that slipped through
 * escaping could neither load a resource nor run a script.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * One self-contained HTML page (inline style, no script, no network): the
 * summary and verdict, the coverage matrix, then the failures grouped by
 * cause (a list linking to each, each with the rules it affected and one
 * example in full), the warnings by cause, the rules by operation, and what
 * the target answered where the interface is silent. Every text is escaped
 * (src/shared/html-escape.ts).
 */
export function htmlReport(report: Shown<Report>, about: ReportAbout): string {
  const run = report.kind === 'contract-run' ? report : undefined;
  const wrongTarget = run?.wrongTarget ?? null;
  const title = `${headingOf(report)} ${report.ok ? 'passed' : wrongTarget ? 'not judged' : 'failed'}: ${report.target.baseUrl}`;
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
    run && !wrongTarget ? coverageSection(run) : '',
    wrongTarget ? '' : failuresSection(report),
    wrongTarget ? '' : causesSection('warnings', 'Warnings by cause (no rule failed of them)', warningCauses(report), report),
    rulesSection(report.results),
    run ? silentSection(run) : '',
    run ? driftSection(run.drift) : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const headingOf = (report: Report): string => (report.kind === 'contract-run' ? 'Contract tests' : 'Proxy checks');

/** What the page says of where the report comes from: a run's seed and cases, or the traffic proxy mode checked. */
function factsOf(report: Report, about: ReportAbout): Array<[string, string, string]> {
  const when: Array<[string, string, string]> = [
    ['started', 'Started', report.startedAt],
    ['duration', 'Duration', `${(report.ms / 1000).toFixed(1)} s`],
  ];
  if (report.kind === 'proxy-traffic') {
    return [['target', 'Target', `${report.target.baseUrl} (through proxy mode)`], ...when, ['harness', 'Mock', `animal-store-mock ${about.version}`]];
  }
  return [
    ['target', 'Target', `${report.target.baseUrl}${report.target.readOnly ? ' (read-only: the writing rules are skipped)' : ''}`],
    ['seed', 'Seed', `${report.seed} (--seed ${report.seed} sends the same generated cases)`],
    ['examples', 'Random cases', `${report.examples} per generated rule`],
    ...runFacts(report),
    ...when,
    ['harness', 'Harness', `animal-store-contract ${about.version}`],
  ];
}

function summarySection(report: Report, about: ReportAbout): string {
  const wrongTarget = report.kind === 'contract-run' ? report.wrongTarget : null;
  // A wrong target (wrong-target.ts) is judged neither passed nor failed: its one line leads the page, as it leads the terminal.
  const verdict = report.ok ? 'passed' : wrongTarget ? 'not judged' : 'failed';
  const facts: Array<[string, string, string]> = [...factsOf(report, about), ['verdict', 'Verdict', `${verdictText(report)}${wrongTarget ? '; the rules below are what each request got' : ''}`]];
  return element('header', { id: 'summary' }, [
    element('h1', {}, `${headingOf(report)} ${textElement('span', { class: `verdict ${report.ok ? 'passed' : 'failed'}` }, verdict)}`),
    ...(wrongTarget ? [textElement('p', { class: 'failed', id: 'wrong-target' }, wrongTarget.message)] : []),
    element('dl', { class: 'facts' }, facts.map(([id, label, text]) => `${textElement('dt', {}, label)}${textElement('dd', { id }, text)}`).join('\n')),
    // A wrong target's counts would claim a coverage its rules never judged.
    ...(wrongTarget ? [] : [countsTable(report)]),
  ].join('\n'));
}

/** The counts; a run's with its coverage of the document's pairs (no rule chose proxy traffic's requests). */
function countsTable(report: Report): string {
  const s = report.summary;
  const counts = (['passed', 'failed', 'skipped', 'warnings'] as const).map((name) => [name, s[name]] as const);
  const coverage = report.kind === 'contract-run' ? report.coverage : undefined;
  return element('table', { class: 'counts', id: 'counts' }, [
    element('tr', {}, [...counts.map(([name]) => textElement('th', {}, name)), ...(coverage ? [textElement('th', {}, 'coverage')] : [])].join('')),
    element('tr', {}, [
      ...counts.map(([name, count]) => textElement('td', { class: count > 0 && name !== 'passed' ? (name === 'warnings' ? 'warning' : name) : undefined, 'data-count': name }, String(count))),
      ...(coverage ? [textElement('td', { 'data-count': 'coverage' }, `${coverage.covered}/${coverage.total}`)] : []),
    ].join('')),
  ].join('\n'));
}

/** The failures by cause, or that none failed. */
function failuresSection(report: VerdictReport): string {
  const causes = failingCauses(report);
  if (causes.length === 0) return element('section', { id: 'failures' }, `${textElement('h2', {}, 'Failures')}\n${textElement('p', { class: 'passed' }, 'No rule failed.')}`);
  return causesSection('failures', 'Failures by cause', causes, report);
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
    const head = element('th', { scope: 'row' }, `${escapeHtml(operation)}${first ? `<br/>${textElement('code', {}, `${first.method.toUpperCase()} ${first.path}`)}` : ''}`);
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
  const causes = [...new Set(result.findings.map((f) => f.cause).filter((c): c is string => c !== undefined))];
  const verdict = [
    textElement('strong', { class: result.status }, result.status),
    // Each finding is shown once, under its cause: the row links there.
    causes.length > 0 ? element('p', { class: 'causes' }, `${result.status === 'failed' ? 'by' : 'warned by'} ${causes.map((c) => element('a', { href: `#${causeAnchor(c)}` }, escapeHtml(c))).join(', ')}`) : '',
    result.reason ? textElement('p', {}, result.reason) : '',
    textElement('p', { class: 'tags' }, ruleTags(result)),
  ].join('');
  return element('tr', { id: ruleAnchor(result.id), class: `rule rule-${result.status}` }, [
    element('td', {}, `${textElement('code', {}, result.id)}<br/>${markdownHtml(result.title)}`),
    element('td', {}, verdict),
    element('td', { class: 'statement' }, `${textElement('strong', {}, result.statement.section)}: ${markdownHtml(result.statement.text)}`),
  ].join(''));
}

/** What the target answered where the interface is silent (the silent log of the run). */
function silentSection({ silent }: SuiteReport): string {
  if (silent.length === 0) return '';
  const entries = silent.map((entry) =>
    element('li', {}, `${markdownHtml(entry.question)}${element('ul', {}, entry.answers.map((a) => element('li', {}, `${escapeHtml(a.answer)}${a.count > 1 ? ` (${a.count} times)` : ''}${textElement('pre', {}, `e.g. ${a.example}`)}`)).join(''))}`),
  );
  return element('section', { id: 'silent' }, `${textElement('h2', {}, 'Where the interface is silent, this target answered')}\n${element('ul', {}, entries.join('\n'))}`);
}
