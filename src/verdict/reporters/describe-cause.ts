import type { FailureCause, Report, VerdictReport } from '../report.js';
import { counted } from './excerpt.js';

/**
 * A cause in one line, as every reporter heads it: what went wrong, then
 * how often and how many rules it affected.
 * `answered 503 service_unavailable with Retry-After: on 193 of 703 requests (about 1 in 4), 35 rules affected, 190 findings`
 */
export const causeHeadline = (cause: FailureCause): string => `${cause.cause}: ${causeCounts(cause)}`;

/** How often a cause came and what it affected: `on 193 of 703 requests (about 1 in 4), 35 rules affected, 190 findings`. */
export function causeCounts(cause: FailureCause): string {
  const often = cause.requests ? `on ${cause.requests.matching} of ${cause.requests.total} requests (${share(cause.requests.matching, cause.requests.total)}), ` : '';
  const findings = cause.findings > cause.rules.length ? `, ${counted(cause.findings, 'finding')}` : '';
  return `${often}${counted(cause.rules.length, 'rule')} affected${findings}`;
}

/** How often, in words a reader takes in at once: `about 1 in 3`, `about 60%`, `every one`. */
function share(matching: number, total: number): string {
  if (matching >= total) return 'every one';
  if (matching * 2 > total) return `about ${Math.round((matching / total) * 100)}%`;
  return `about 1 in ${Math.round(total / matching)}`;
}

/** The causes that failed a rule, then those that only warned. */
export const failingCauses = (report: VerdictReport): FailureCause[] => report.causes.filter((c) => c.level === 'error');
export const warningCauses = (report: VerdictReport): FailureCause[] => report.causes.filter((c) => c.level === 'warning');

/**
 * The verdict in one line: a run's with its exit code,
 * `failed: exit code 1 (31 contract rules and 4 advisory rules failed, from 1 cause)`;
 * proxy traffic's with what broke, `failed (12 exchanges broke a statement, from 2 causes)`.
 */
export function verdictText(report: Report): string {
  const { ok, summary: s, causes } = report;
  const failing = causes.filter((c) => c.level === 'error').length;
  if (report.kind === 'proxy-traffic') return ok ? 'passed: no exchange broke a statement' : `failed (${counted(report.violations, 'exchange')} broke a statement, from ${counted(failing, 'cause')})`;
  if (ok && report.learning && s.failed > 0) return `passed: exit code 0 (a learning run: ${counted(s.failed, 'rule')} failed only on the target's choices, written into ${report.learning.file})`;
  if (ok) return 'passed: exit code 0';
  if (report.wrongTarget) return `not judged: exit code 2 (${report.wrongTarget.message})`;
  return `failed: exit code 1 (${counted(s.contractFailed, 'contract rule')} and ${counted(s.failed - s.contractFailed, 'advisory rule')} failed, from ${counted(failing, 'cause')})`;
}

/** The rules a cause affected, cut to `max` names: `a, b, c and 21 more`. */
export function ruleNames(cause: FailureCause, max = Infinity): string {
  const shown = cause.rules.slice(0, max);
  return `${shown.join(', ')}${cause.rules.length > shown.length ? ` and ${cause.rules.length - shown.length} more` : ''}`;
}
