import { escapeHtml } from '../../shared/html-escape.js';
import type { DriftReport } from '../drift-report.js';
import { element, textElement } from './html-element.js';

/** The drift report's section: causes with both targets' answers and curl lines, then what is inconsistent, failed on B, or not compared. */
export function driftSection(drift: DriftReport | undefined): string {
  if (!drift) return '';
  const list = (items: string[]) => (items.length === 0 ? '' : element('ul', {}, items.join('\n')));
  const groups = drift.groups.map((g) =>
    element('li', {}, `${escapeHtml(`${g.cause}: A ${g.a}, B ${g.b} (${g.cases} ${g.cases === 1 ? 'case' : 'cases'})`)}${textElement('pre', {}, `A: ${g.example.a}\nB: ${g.example.b}`)}`),
  );
  const parts = [
    textElement('h2', {}, 'Drift'),
    textElement('p', {}, `A ${drift.a} against B ${drift.b}: ${drift.compared} cases compared, ${drift.groups.length === 0 ? 'no drift' : `${drift.groups.length} causes of drift`}.`),
    list(groups),
  ];
  if (drift.notCopied.length > 0) {
    parts.push(textElement('h3', {}, 'Not copied by the mock, whatever a profile says (not drift)'), list(drift.notCopied.map((n) => textElement('li', {}, `${n.what} (${n.cases} cases): ${n.why}`))));
  }
  if (drift.inconsistent.length > 0) {
    parts.push(textElement('h3', {}, 'Inconsistent (answered differently on repeat, not drift)'), list(drift.inconsistent.map((i) => element('li', {}, `${escapeHtml(`on ${i.side.toUpperCase()}: ${i.cause}: ${i.answers.join(', then ')}`)}${textElement('pre', {}, i.example)}`))));
  }
  if (drift.failedOnB.length > 0) parts.push(textElement('h3', {}, 'Failed on B (contract failures, not drift)'), list(drift.failedOnB.map((f) => textElement('li', {}, `${f.id}: ${f.message}`))));
  if (drift.notCompared.length > 0) parts.push(textElement('h3', {}, 'Not compared, or compared in part'), list(drift.notCompared.map((n) => textElement('li', {}, `${n.id}: ${n.reason}`))));
  return element('section', { id: 'drift' }, parts.filter(Boolean).join('\n'));
}
