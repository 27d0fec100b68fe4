import type { SuiteReport } from '../report.js';
import type { ReportAbout } from './html-reporter.js';
import { causeHeadline, failingCauses, ruleNames, verdictText, warningCauses } from './describe-cause.js';
import { curlLine } from '../curl-line.js';
import { counted } from './excerpt.js';
import { countsLine, reportHeader } from './pretty-reporter.js';
import type { Shown } from '../shown-report.js';

/** The causes shown in full; past them, how many more. With the other lines, a run of any size fits in about 60 lines. */
const CAUSES_SHOWN = 8;
/** The rule names listed per cause. */
const RULES_SHOWN = 6;
/** The longest line printed: a CI log wraps or cuts longer ones. */
const LINE_MAX = 240;

/**
 * A CI-sized report (`--reporter summary`): the verdict, the causes of the
 * failures (each with the rules it affected and one example's curl line),
 * the coverage, and where the full reports are, in at most about 60 lines
 * whatever the run: a CI log is read top to bottom, and a wall of
 * near-identical failures hides the one line that matters.
 */
export function summaryReport(report: Shown<SuiteReport>, about: ReportAbout): string {
  const out = reportHeader(report);
  if (report.wrongTarget) {
    out.push(`Verdict: ${verdictText(report)}`);
    return finish(out, pointer(about));
  }
  out.push(`Verdict: ${verdictText(report)}`, '');
  const failing = failingCauses(report);
  if (failing.length > 0) out.push(`Failures by cause (${failing.length}):`);
  for (const cause of failing.slice(0, CAUSES_SHOWN)) {
    const { rule, finding } = cause.example;
    out.push(
      `  ${cause.id}: ${causeHeadline(cause)}`,
      `    rules: ${ruleNames(cause, RULES_SHOWN)}`,
      `    e.g. ${rule}: ${finding.message}${finding.path ? ` (at ${finding.path})` : ''}`,
      ...(finding.exchange ? [`    replay: ${finding.reproduce?.curl.split('\n')[0] ?? curlLine(finding.exchange.request)}`] : []),
    );
  }
  if (failing.length > CAUSES_SHOWN) out.push(`  and ${counted(failing.length - CAUSES_SHOWN, 'more cause')}, in the full reports`);
  const warnings = warningCauses(report);
  if (warnings.length > 0) out.push(`Warnings: ${counted(report.summary.warnings, 'warning')} from ${counted(warnings.length, 'cause')} (${warnings.slice(0, 3).map((c) => c.cause).join('; ')}${warnings.length > 3 ? '; …' : ''})`);
  const skipped = report.results.filter((r) => r.status === 'skipped');
  if (skipped.length > 0) out.push(`Skipped: ${skipped.slice(0, RULES_SHOWN).map((r) => r.id).join(', ')}${skipped.length > RULES_SHOWN ? ` and ${skipped.length - RULES_SHOWN} more` : ''}`);
  const uncovered = report.coverage.pairs.filter((p) => p.rules.length === 0).map((p) => `${p.method.toUpperCase()} ${p.path} ${p.status}`);
  out.push(`Coverage: ${report.coverage.covered}/${report.coverage.total} documented request/response pairs${uncovered.length > 0 ? `; not covered: ${uncovered.join(', ')}` : ''}`);
  if (report.drift) out.push(`Drift against ${report.drift.b}: ${report.drift.groups.length === 0 ? 'none' : `${counted(report.drift.groups.length, 'cause')} (${report.drift.groups.slice(0, 3).map((g) => g.cause).join('; ')}${report.drift.groups.length > 3 ? '; …' : ''})`}`);
  out.push('');
  return finish(out, [...pointer(about), countsLine(report)]);
}

/** Where every finding is in full: the files this run wrote, or how to get them. */
function pointer(about: ReportAbout): string[] {
  const files = about.files ?? [];
  if (files.length > 0) return ['Full reports:', ...files.map((f) => `  ${f.path} (${f.name})`)];
  return ['Every finding in full: --reporter pretty, or --reporter html --output report.html'];
}

/** The report's lines, each cut to LINE_MAX; then `tail` as it is (file names are the user's own, and cut would mislead). */
const finish = (lines: string[], tail: string[]): string => `${[...lines.map((line) => (line.length <= LINE_MAX ? line : `${line.slice(0, LINE_MAX - 1)}…`)), ...tail].join('\n')}\n`;
