import type { SuiteReport } from '../run-suite.js';
import type { RuleResult } from '../types.js';
import { describeFinding, describeSilent } from './describe-finding.js';
import { describeDrift } from './drift-lines.js';
import { OPERATION_ORDER } from './excerpt.js';

const MARK: Record<RuleResult['status'], string> = { passed: '✓', failed: '✗', skipped: '○' };

/** Human-readable report: rules grouped by operation, failures in full, the coverage matrix, a summary. */
export function prettyReport(report: SuiteReport): string {
  // Every request answered alike (wrong-target.ts): the rules judged nothing of the API, so none is listed.
  if (report.wrongTarget) return `${report.wrongTarget.message}\n`;
  const out: string[] = [
    `Contract tests against ${report.target.baseUrl}${report.target.readOnly ? ' (read-only)' : ''}`,
    `Seed ${report.seed}, ${report.examples} random cases per operation (replay with --seed ${report.seed})`,
    ...(report.declared.length > 0 ? [`Declared refusals (--allow-refusal): ${report.declared.join(', ')}`] : []),
    '',
  ];
  for (const operation of OPERATION_ORDER) {
    const results = report.results.filter((r) => r.operation === operation);
    if (results.length === 0) continue;
    out.push(operation);
    for (const r of results) {
      const tags = [r.severity === 'advisory' ? 'advisory' : '', r.writes ? 'writes' : ''].filter(Boolean).join(', ');
      const suffix = r.status === 'skipped' ? ` (skipped: ${r.reason})` : ` ${r.cases === undefined ? '' : `${r.cases} cases, `}${Math.round(r.ms)} ms`;
      out.push(`  ${MARK[r.status]} ${r.id}: ${r.title}${tags ? ` [${tags}]` : ''}${suffix}`);
      for (const finding of r.findings) {
        const [first, ...rest] = describeFinding(finding);
        out.push(`      ${finding.level === 'error' ? 'FAIL' : 'warn'} ${first}`, ...rest.map((line) => `           ${line}`));
      }
    }
    out.push('');
  }
  const silent = describeSilent(report.silent);
  if (silent.length > 0) out.push(...silent, '');
  if (report.drift) out.push(...describeDrift(report.drift), '');
  out.push(`Coverage of the documented request/response pairs (dredd-transactions): ${report.coverage.covered}/${report.coverage.total}`);
  for (const pair of report.coverage.pairs) {
    const rules = pair.rules.length > 0 ? pair.rules.join(', ') : 'NOT COVERED';
    out.push(`  ${pair.operation.padEnd(9)} ${pair.method.padEnd(4)} ${pair.status}  ${rules}`);
  }
  const s = report.summary;
  out.push(
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped` +
      `${s.warnings ? `, ${s.warnings} warnings` : ''}; coverage ${report.coverage.covered}/${report.coverage.total}; seed ${report.seed}; ${Math.round(report.ms)} ms`,
    '',
  );
  return out.join('\n');
}
