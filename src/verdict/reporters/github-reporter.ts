import type { FailureCause, SuiteReport } from '../report.js';
import { causeHeadline, failingCauses, ruleNames, verdictText, warningCauses } from './describe-cause.js';
import type { ReportAbout } from './html-reporter.js';
import { curlLine } from '../curl-line.js';
import { counted } from './excerpt.js';
import type { Shown } from '../shown-report.js';
import { countsLine, reportHeader } from './pretty-reporter.js';

/**
 * GitHub shows at most 10 error and 10 warning annotations of a step
 * (docs.github.com, "Workflow commands for GitHub Actions"); past them, the
 * last one says how many more causes the reports hold.
 */
const ANNOTATIONS_SHOWN = 10;

/**
 * `--reporter github`: one workflow annotation per cause (`::error` for a
 * cause that failed a rule, `::warning` for one that only warned), on the
 * contract document the run checked against, then the verdict as plain
 * text. A wrong target is one `::error`.
 */
export function githubReport(report: Shown<SuiteReport>, about: ReportAbout): string {
  const file = inWorkspace(about.document);
  if (report.wrongTarget) return `${annotation('error', { file, title: 'Contract tests not judged' }, report.wrongTarget.message)}\n${verdictText(report)}\n`;
  const lines = [...annotations('error', failingCauses(report), file), ...annotations('warning', warningCauses(report), file)];
  if (!report.ok && failingCauses(report).length === 0) lines.push(annotation('error', { file, title: 'Contract tests failed' }, verdictText(report)));
  // Which run this was (the target, the seed to replay it), its counts, and the verdict last: the line a reader of the step's log sees first.
  lines.push(...reportHeader(report), countsLine(report), `Contract tests ${verdictText(report)}`);
  return `${lines.join('\n')}\n`;
}

function annotations(level: 'error' | 'warning', causes: readonly FailureCause[], file: string | undefined): string[] {
  return causes.slice(0, ANNOTATIONS_SHOWN).map((cause, index) => {
    const more = index === ANNOTATIONS_SHOWN - 1 && causes.length > ANNOTATIONS_SHOWN ? `\nand ${counted(causes.length - ANNOTATIONS_SHOWN, 'more cause')}, in the full reports` : '';
    const { rule, finding } = cause.example;
    const replay = finding.reproduce?.curl ?? (finding.exchange ? curlLine(finding.exchange.request) : undefined);
    const message = [causeHeadline(cause), `rules: ${ruleNames(cause, 20)}`, `e.g. ${rule}: ${finding.message}`, ...(replay ? [`replay: ${replay}`] : [])].join('\n');
    return annotation(level, { file, title: `${cause.id}: ${cause.cause}` }, `${message}${more}`);
  });
}

/**
 * The document's path as an annotation may name it: relative to the folder
 * the run started in (the workspace, in a workflow). One outside it (`..`,
 * the Action's own copy of the document) is no file of the repository
 * GitHub can show, so the annotation names none and shows on the run.
 */
function inWorkspace(path: string | undefined): string | undefined {
  return path === undefined || /^(\.\.([/\\]|$)|[/\\]|[A-Za-z]:)/.test(path) ? undefined : path;
}

/**
 * A workflow command, escaped as the runner reads it (actions/toolkit,
 * `command.ts`): in the message, `%`, CR and LF; in a property, also `:`
 * and `,`, which would end it.
 */
export function annotation(level: 'error' | 'warning' | 'notice', properties: Record<string, string | undefined>, message: string): string {
  const shown = Object.entries(properties)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `${name}=${escapeProperty(value)}`)
    .join(',');
  return `::${level}${shown ? ` ${shown}` : ''}::${escapeData(message)}`;
}

const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
