import type { FailureCause, SuiteReport } from '../report.js';
import { curlLine } from '../curl-line.js';
import { causeCounts, failingCauses, ruleNames, verdictText, warningCauses } from './describe-cause.js';
import type { ReportAbout } from './html-reporter.js';
import { counted } from './excerpt.js';
import type { Shown } from '../shown-report.js';
import { runFactLines } from './describe-run.js';

/** Causes in the table; past them, how many more. A job summary is read on one screen. */
const CAUSES_SHOWN = 12;

/**
 * `--reporter markdown`: the verdict, the counts, the causes (each with the
 * rules it affected and one example's curl line, folded) and the coverage,
 * as GitHub-flavoured Markdown for a CI job's summary page
 * (`$GITHUB_STEP_SUMMARY`) or a merge request comment. What came from the
 * server is escaped, or inside a code block fenced longer than any run of
 * backticks in it, so it cannot turn into markup.
 */
export function markdownReport(report: Shown<SuiteReport>, about: ReportAbout): string {
  const verdict = report.ok ? 'passed' : report.wrongTarget ? 'not judged' : 'failed';
  const out = [
    `## Contract tests ${verdict}`,
    '',
    `Target ${code(report.target.baseUrl)}${report.target.readOnly ? ' (read-only)' : ''} · seed ${report.seed} (${code(`--seed ${report.seed}`)} sends the same cases) · ${report.examples} random cases per operation`,
    '',
    `**Verdict:** ${text(verdictText(report))}`,
    '',
    ...runFactLines(report).flatMap((line) => [text(line), '']),
  ];
  if (!report.wrongTarget) {
    const s = report.summary;
    out.push('| passed | failed | skipped | warnings | coverage |', '|---:|---:|---:|---:|---:|', `| ${s.passed} | ${s.failed} | ${s.skipped} | ${s.warnings} | ${report.coverage.covered}/${report.coverage.total} |`, '');
    out.push(...causeTable('Failures by cause', failingCauses(report)), ...causeTable('Warnings by cause (no rule failed of them)', warningCauses(report)));
    const uncovered = report.coverage.pairs.filter((p) => p.rules.length === 0).map((p) => code(`${p.method.toUpperCase()} ${p.path} ${p.status}`));
    if (uncovered.length > 0) out.push(`Not covered: ${uncovered.join(', ')}`, '');
    if (report.drift) out.push(`Drift against ${code(report.drift.b)}: ${report.drift.groups.length === 0 ? 'none' : text(report.drift.groups.map((g) => `${g.cause}: A ${g.a}, B ${g.b}`).join('; '))}`, '');
  }
  const files = about.files ?? [];
  if (files.length > 0) out.push(`Full reports: ${files.map((f) => `${code(f.path)} (${f.name})`).join(', ')}`, '');
  return `${out.join('\n')}\n`;
}

function causeTable(title: string, causes: readonly FailureCause[]): string[] {
  if (causes.length === 0) return [];
  const out = [`### ${title} (${causes.length})`, '', '| cause | what went wrong | how often, and what it affected |', '|---|---|---|'];
  for (const c of causes.slice(0, CAUSES_SHOWN)) out.push(`| ${c.id} | ${text(c.cause)} | ${text(causeCounts(c))} |`);
  if (causes.length > CAUSES_SHOWN) out.push(`| | and ${counted(causes.length - CAUSES_SHOWN, 'more cause')}, in the full reports | |`);
  out.push('');
  for (const c of causes.slice(0, CAUSES_SHOWN)) {
    const { rule, finding } = c.example;
    const replay = finding.reproduce?.curl ?? (finding.exchange ? curlLine(finding.exchange.request) : undefined);
    out.push(
      `<details><summary>${c.id}: the rules it affected, and one example</summary>`,
      '',
      `Rules: ${text(ruleNames(c, 30))}`,
      '',
      `Example, ${code(rule)}: ${text(finding.message)}${finding.path ? ` (at ${code(finding.path)})` : ''}`,
      ...(replay ? ['', fenced(replay, 'sh')] : []),
      '',
      '</details>',
      '',
    );
  }
  return out;
}

/**
 * Text inside a line, with every character that could start markup there
 * escaped (CommonMark §2.4: a backslash escapes any ASCII punctuation):
 * emphasis, code, links, inline HTML and entities, and a table's cell
 * separator. What only counts at a line's start (`#`, `-`, `>`) cannot be
 * there: line breaks become spaces.
 */
const text = (value: string): string => value.replace(/[\\`*_[\]<>|~&]/g, '\\$&').replace(/\r?\n/g, ' ');

/** A code span (CommonMark §6.1): fenced by more backticks than any run inside it, padded so a backtick at either end stays in. */
function code(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${value.replace(/\r?\n/g, ' ')} ${fence}`;
}

/** A fenced code block (CommonMark §4.5), its fence longer than any run of backticks in it. */
function fenced(value: string, info: string): string {
  const longest = Math.max(2, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${value}\n${fence}`;
}
