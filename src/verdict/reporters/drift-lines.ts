import type { DriftReport } from '../drift-report.js';

/** The drift report as text: each cause with its count, what each target answered, and a curl line for each side. */
export function describeDrift(drift: DriftReport): string[] {
  const cases = drift.groups.reduce((n, g) => n + g.cases, 0);
  const lines = [`Drift: A ${drift.a} against B ${drift.b} (${drift.compared} cases compared)`];
  if (drift.groups.length === 0) lines.push(drift.notCopied.length === 0 ? '  No drift: the two targets answered every compared case alike.' : '  No drift a profile can remove: but for what the mock will not copy (below), the two targets answered every compared case alike.');
  else lines.push(`  ${drift.groups.length} ${drift.groups.length === 1 ? 'cause' : 'causes'}, ${cases} cases:`);
  for (const g of drift.groups) {
    lines.push(`  ${g.cause}: A ${g.a}, B ${g.b} (${g.cases} ${g.cases === 1 ? 'case' : 'cases'})`, `      A: ${g.example.a}`, `      B: ${g.example.b}`);
  }
  if (drift.notCopied.length > 0) {
    lines.push('  Not copied by the mock, whatever a profile says (not drift):');
    for (const n of drift.notCopied) lines.push(`    ${n.what} (${n.cases} ${n.cases === 1 ? 'case' : 'cases'}): ${n.why}`);
  }
  if (drift.inconsistent.length > 0) {
    lines.push('  Inconsistent (the same request answered differently on repeat: no choice to compare, not drift):');
    for (const i of drift.inconsistent) lines.push(`    on ${i.side.toUpperCase()}: ${i.cause}: ${i.answers.join(', then ')}`, `      e.g. ${i.example}`);
  }
  if (drift.failedOnB.length > 0) {
    lines.push('  Failed on B (contract failures, not drift; run against B alone for the details):');
    for (const f of drift.failedOnB) lines.push(`    ${f.id}: ${f.message}`);
  }
  if (drift.notCompared.length > 0) {
    lines.push('  Not compared, or compared in part:');
    for (const n of drift.notCompared) lines.push(`    ${n.id}: ${n.reason}`);
  }
  return lines;
}
