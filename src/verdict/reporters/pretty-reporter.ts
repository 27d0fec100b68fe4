import type { FailureCause, SuiteReport, RuleResult } from '../report.js';
import { causeHeadline, failingCauses, verdictText, warningCauses } from './describe-cause.js';
import { describeFinding, describeSilent } from './describe-finding.js';
import { describeDrift } from './drift-lines.js';
import { counted, OPERATION_ORDER } from './excerpt.js';
import type { Shown } from '../shown-report.js';
import { runFactLines } from './describe-run.js';

const MARK: Record<RuleResult['status'], string> = { passed: '✓', failed: '✗', skipped: '○' };

/**
 * Human-readable report: the verdict, then the failures grouped by cause
 * (each with the rules it affected and one example in full: its request,
 * response and curl line), then the rules by operation, each finding on one
 * line naming its cause, so that nothing is printed in full twice; the
 * coverage matrix and the counts last.
 */
export function prettyReport(report: Shown<SuiteReport>): string {
  // Every request answered alike (wrong-target.ts): the rules judged nothing of the API, so none is listed.
  if (report.wrongTarget) return `${report.wrongTarget.message}\n`;
  const out: string[] = [...reportHeader(report), `Verdict: ${verdictText(report)}`, ''];
  out.push(...causeSection('Failures by cause', failingCauses(report)), ...causeSection('Warnings by cause (no rule failed of them)', warningCauses(report)));
  for (const operation of OPERATION_ORDER) {
    const results = report.results.filter((r) => r.operation === operation);
    if (results.length === 0) continue;
    out.push(operation);
    for (const r of results) out.push(ruleLine(r), ...r.findings.map((f) => `      ${f.level === 'error' ? 'FAIL' : 'warn'} ${f.message}${f.path ? ` (at ${f.path})` : ''} [${f.cause}]`));
    out.push('');
  }
  const silent = describeSilent(report.silent);
  if (silent.length > 0) out.push(...silent, '');
  if (report.drift) out.push(...describeDrift(report.drift), '');
  out.push(`Coverage of the documented request/response pairs (dredd-transactions): ${report.coverage.covered}/${report.coverage.total}`);
  for (const pair of report.coverage.pairs) {
    const rules = pair.rules.length > 0 ? pair.rules.join(', ') : 'NOT COVERED';
    out.push(`  ${pair.operation.padEnd(9)} ${pair.method.toUpperCase().padEnd(4)} ${pair.path.padEnd(13)} ${pair.status}  ${rules}`);
  }
  out.push('', countsLine(report), '');
  return out.join('\n');
}

/** The target, the seed and the declarations: what says which run this was. */
export function reportHeader(report: SuiteReport): string[] {
  return [
    `Contract tests against ${report.target.baseUrl}${report.target.readOnly ? ' (read-only)' : ''}`,
    `Seed ${report.seed}, ${report.examples} random cases per operation (replay with --seed ${report.seed})`,
    ...(report.declared.length > 0 ? [`Declared refusals (--allow-refusal): ${report.declared.join(', ')}`] : []),
    ...runFactLines(report),
  ];
}

/** `44 passed, 0 failed, 0 skipped; coverage 8/8; seed 1; 2176 ms`: the last line of a run. */
export function countsLine(report: SuiteReport): string {
  const s = report.summary;
  return `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.warnings ? `, ${counted(s.warnings, 'warning')}` : ''}; coverage ${report.coverage.covered}/${report.coverage.total}; seed ${report.seed}; ${Math.round(report.ms)} ms`;
}

function ruleLine(r: RuleResult): string {
  const tags = [r.severity === 'advisory' ? 'advisory' : '', r.writes ? 'writes' : ''].filter(Boolean).join(', ');
  const suffix = r.status === 'skipped' ? ` (skipped: ${r.reason})` : ` ${r.cases === undefined ? '' : `${r.cases} cases, `}${Math.round(r.ms)} ms`;
  return `  ${MARK[r.status]} ${r.id}: ${r.title}${tags ? ` [${tags}]` : ''}${suffix}`;
}

/** Each cause: its headline, where it was seen, the rules it affected, and its example in full. */
function causeSection(title: string, causes: readonly FailureCause[]): string[] {
  if (causes.length === 0) return [];
  const out = [`${title} (${causes.length}):`];
  for (const cause of causes) {
    const [first, ...rest] = describeFinding(cause.example.finding);
    out.push(
      `  ${cause.id}: ${causeHeadline(cause)}`,
      `    on ${cause.operations.join(', ') || 'no documented operation'}`,
      `    rules: ${cause.rules.join(', ')}`,
      `    e.g. ${cause.example.rule}: ${first}`,
      ...rest.map((line) => `         ${line}`),
    );
  }
  out.push('');
  return out;
}
