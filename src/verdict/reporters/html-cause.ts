import { escapeHtml } from '../../shared/html-escape.js';
import type { FailureCause, RuleResult, VerdictReport } from '../report.js';
import { causeCounts, causeHeadline } from './describe-cause.js';
import { counted } from './excerpt.js';
import { element, markdownHtml, textElement } from './html-element.js';
import { findingBlock, findingHeadline, ruleAnchor, statementBlock } from './html-finding.js';

/** The anchor of a cause's article, which the list of causes and the rules link to. */
export const causeAnchor = (id: string): string => id;

/**
 * The causes of one level (failures, or warnings of rules that passed):
 * a list linking to each, then each with its headline, the operations
 * where it was seen, the rules it affected, and one example in full; the
 * cause's other findings are folded, one line each with their exchange
 * behind it, so none is lost and none is printed twice.
 */
export function causesSection(id: string, title: string, causes: readonly FailureCause[], report: VerdictReport): string {
  if (causes.length === 0) return '';
  const toc = causes.map((c) => element('li', {}, `${element('a', { href: `#${causeAnchor(c.id)}` }, escapeHtml(c.id))}: ${markdownHtml(causeHeadline(c))}`));
  return element('section', { id }, [
    textElement('h2', {}, `${title} (${causes.length})`),
    element('ol', { class: 'toc' }, toc.join('\n')),
    ...causes.map((cause) => causeArticle(cause, report.results)),
  ].join('\n'));
}

function causeArticle(cause: FailureCause, results: readonly RuleResult[]): string {
  const exampleRule = results.find((r) => r.id === cause.example.rule);
  const others = results.flatMap((r) => r.findings.filter((f) => f.cause === cause.id && f !== cause.example.finding).map((finding) => ({ rule: r.id, finding })));
  const rules = cause.rules.map((rule) => element('a', { href: `#${ruleAnchor(rule)}` }, escapeHtml(rule))).join(', ');
  return element('article', { class: `cause cause-${cause.level}`, id: causeAnchor(cause.id) }, [
    element('h3', {}, `${cause.level === 'error' ? '✗' : '⚠'} ${textElement('code', {}, cause.id)}: ${markdownHtml(cause.cause)}`),
    textElement('p', { class: 'cause-counts' }, causeCounts(cause)),
    element('p', { class: 'operations' }, `Seen on ${cause.operations.map((o) => textElement('code', {}, o)).join(', ') || 'no documented operation'}`),
    element('p', { class: 'rules-affected' }, `Rules affected: ${rules}`),
    element('h4', {}, `Example: ${textElement('code', {}, cause.example.rule)}`),
    exampleRule ? statementBlock(exampleRule) : '',
    findingBlock(cause.example.finding),
    others.length === 0
      ? ''
      : element('details', { class: 'more-findings' }, [
          textElement('summary', {}, `${counted(others.length, 'more finding')} of this cause`),
          element('ul', {}, others.map(({ rule, finding }) => element('li', {}, element('details', { class: 'finding-line' }, `${element('summary', { class: `finding-${finding.level}` }, `${textElement('code', {}, rule)}: ${findingHeadline(finding)}`)}${findingBlock(finding, { headline: false })}`))).join('\n')),
        ].join('')),
  ].filter(Boolean).join('\n'));
}
