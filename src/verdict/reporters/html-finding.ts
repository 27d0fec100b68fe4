import { curlLine } from '../curl-line.js';
import type { RuleResult } from '../report.js';
import type { Finding } from '../exchange.js';
import { caseSteps, requestLines, responseLines } from './describe-finding.js';
import { element, markdownHtml, textElement } from './html-element.js';
import { counted } from './excerpt.js';

/** The anchor of a rule's row in the rules by operation. */
export const ruleAnchor = (id: string): string => `rule-${id}`;

/** The operation, severity and whether the rule writes, in one line. */
export const ruleTags = (result: RuleResult): string =>
  [result.operation, result.severity, result.writes ? 'writes' : 'reads', result.cases === undefined ? '' : counted(result.cases, 'case'), `${Math.round(result.ms)} ms`].filter(Boolean).join(' · ');

/** The statement of the interface a rule checks: its section, then what it says. */
export function statementBlock({ statement }: RuleResult): string {
  return element('blockquote', { class: 'statement' }, `${element('p', {}, `The interface (${textElement('strong', {}, statement.section)}) says:`)}${element('p', {}, markdownHtml(statement.text))}`);
}

/** `Failed: the body is not a JSON array (at $.body)`, as markup. */
export const findingHeadline = (finding: Finding): string =>
  `${finding.level === 'error' ? 'Failed' : 'Warning'}: ${markdownHtml(finding.message)}${finding.path ? ` (at ${textElement('code', {}, finding.path)})` : ''}`;

/**
 * One finding: what went wrong and what was expected; for a generated case,
 * what the case was and its seed; the request as a curl line (the key was
 * redacted when it was recorded), then as sent; the response as received.
 */
export function findingBlock(finding: Finding, { headline = true } = {}): string {
  const parts = [
    // Without its headline where a line above it already says what went wrong (a folded finding's summary).
    headline ? element('p', { class: `message ${finding.level === 'error' ? 'failed' : 'warning'}` }, findingHeadline(finding)) : '',
    element('p', { class: 'expected' }, `Expected: ${markdownHtml(finding.expected)}`),
  ].filter(Boolean);
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
