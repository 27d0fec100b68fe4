import { curlLine } from '../curl-line.js';
import type { Finding, RuleResult } from '../types.js';
import { caseSteps, requestLines, responseLines } from './describe-finding.js';
import { escapeHtml } from '../../shared/html-escape.js';
import { element, statementHtml, textElement } from './html-element.js';

/** The anchor of a failed rule's details, which the list of failures links to. */
export const failureAnchor = (id: string): string => `failure-${id}`;

/** The anchor of a rule's row in the rules by operation. */
export const ruleAnchor = (id: string): string => `rule-${id}`;

/**
 * The findings of a failed rule shown open; the rest are folded in a
 * `<details>` (no script needed), so that a rule with hundreds, against a
 * badly behaved server, does not bury the failures after it.
 */
const OPEN_FINDINGS = 3;

/**
 * A failed rule in full: the statement of the interface it breaks, then
 * each failing finding with its request and response; its warnings last.
 * After the first three, the findings are folded under how many they are.
 */
export function failureArticle(result: RuleResult): string {
  const findings = [...result.findings.filter((f) => f.level === 'error'), ...result.findings.filter((f) => f.level === 'warning')];
  return element('article', { class: 'failure', id: failureAnchor(result.id) }, [
    element('h3', {}, `✗ ${textElement('code', {}, result.id)}: ${escapeHtml(result.title)}`),
    textElement('p', { class: 'tags' }, ruleTags(result)),
    statementBlock(result),
    ...findings.slice(0, OPEN_FINDINGS).map((finding) => findingBlock(finding)),
    foldedFindings(findings.slice(OPEN_FINDINGS)),
    element('p', {}, element('a', { href: `#${ruleAnchor(result.id)}` }, `${escapeHtml(result.id)} among the ${escapeHtml(result.operation)} rules`)),
  ].filter(Boolean).join('\n'));
}

/** `198 more findings`, or `198 more findings (190 failed, 8 warnings)` when warnings are among them; folded. */
function foldedFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return '';
  const warnings = findings.filter((f) => f.level === 'warning').length;
  const failed = findings.length - warnings;
  const kinds = warnings === 0 ? '' : ` (${[failed > 0 ? `${failed} failed` : '', counted(warnings, 'warning')].filter(Boolean).join(', ')})`;
  return element('details', { class: 'more-findings' }, `${textElement('summary', {}, `${counted(findings.length, 'more finding')}${kinds}`)}${findings.map((finding) => findingBlock(finding)).join('\n')}`);
}

/** `1 case`, `2 cases`. */
export const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The operation, severity and whether the rule writes, in one line. */
export const ruleTags = (result: RuleResult): string =>
  [result.operation, result.severity, result.writes ? 'writes' : 'reads', result.cases === undefined ? '' : counted(result.cases, 'case'), `${Math.round(result.ms)} ms`].filter(Boolean).join(' · ');

/** The statement of the interface a rule checks: its section, then what it says. */
function statementBlock({ statement }: RuleResult): string {
  return element('blockquote', { class: 'statement' }, `${element('p', {}, `The interface (${textElement('strong', {}, statement.section)}) says:`)}${element('p', {}, statementHtml(statement.text))}`);
}

/**
 * One finding: what went wrong and what was expected; for a generated case,
 * what the case was and its seed; the request as a curl line (the key was
 * redacted when it was recorded), then as sent; the response as received.
 */
export function findingBlock(finding: Finding): string {
  const level = finding.level === 'error' ? 'failed' : 'warning';
  const parts = [
    element('p', { class: `message ${level}` }, `${finding.level === 'error' ? 'Failed' : 'Warning'}: ${escapeHtml(finding.message)}${finding.path ? ` (at ${textElement('code', {}, finding.path)})` : ''}`),
    textElement('p', { class: 'expected' }, `Expected: ${finding.expected}`),
  ];
  const reproduce = finding.reproduce;
  if (reproduce) {
    parts.push(textElement('p', { class: 'case' }, `Generated case: ${reproduce.case} (${caseSteps(reproduce)}); seed ${reproduce.seed}: --seed ${reproduce.seed} sends the same cases.`));
  }
  const exchange = finding.exchange;
  const curl = reproduce?.curl ?? (exchange ? curlLine(exchange.request) : undefined);
  if (curl !== undefined) parts.push(textElement('h4', {}, 'Replay'), textElement('pre', { class: 'curl' }, curl));
  if (exchange) {
    parts.push(
      textElement('h4', {}, 'Request'),
      textElement('pre', { class: 'request' }, requestLines(exchange.request).join('\n')),
      textElement('h4', {}, 'Response'),
      textElement('pre', { class: 'response' }, responseLines(exchange).join('\n')),
    );
  }
  return element('div', { class: `finding finding-${finding.level}` }, parts.join('\n'));
}
