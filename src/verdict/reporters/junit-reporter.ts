import type { Report, SuiteReport, VerdictReport, WrongTarget } from '../report.js';
import { describeFinding, describeSilent } from './describe-finding.js';
import { describeDrift } from './drift-lines.js';
import { counted, OPERATION_ORDER } from './excerpt.js';
import { causeHeadline } from './describe-cause.js';
import type { Finding } from '../exchange.js';
import type { Shown } from '../shown-report.js';
import { runFacts } from './describe-run.js';

/**
 * JUnit XML, the format CI servers read: one <testsuite> per operation, one
 * <testcase> per rule; a failed rule has a <failure>, a skipped one a
 * <skipped> with its reason; warnings of advisory rules go to <system-out>.
 */
export function junitReport(report: Shown<Report>): string {
  const run = report.kind === 'contract-run' ? report : undefined;
  if (run?.wrongTarget) return wrongTargetReport(run, run.wrongTarget);
  const suites = OPERATION_ORDER.map((operation) => {
    const results = report.results.filter((r) => r.operation === operation);
    const cases = results.map((r) => {
      const name = `${r.id}: ${r.title}`;
      const open = `    <testcase classname="animal-store.${operation}" name="${xml(name)}" time="${seconds(r.ms)}">`;
      const errors = r.findings.filter((f) => f.level === 'error');
      const warnings = r.findings.filter((f) => f.level === 'warning');
      const body: string[] = [];
      if (r.status === 'skipped') body.push(`      <skipped message="${xml(r.reason ?? '')}"/>`);
      if (r.status === 'failed') {
        const first = errors[0];
        const cause = report.causes.find((c) => c.id === first?.cause);
        const message = `${first?.message ?? 'failed'}${cause ? ` (${cause.id}: ${cause.cause}, ${counted(cause.rules.length, 'rule')} affected)` : ''}`;
        body.push(`      <failure message="${xml(message)}" type="${r.severity}">${xml(`${r.statement.section}: ${r.statement.text}\n\n${findingsText(errors, report)}`)}</failure>`);
      }
      if (warnings.length > 0) body.push(`      <system-out>${xml(`warnings:\n${findingsText(warnings, report)}`)}</system-out>`);
      return body.length === 0 ? `${open}</testcase>` : [open, ...body, '    </testcase>'].join('\n');
    });
    const count = (status: string) => results.filter((r) => r.status === status).length;
    const time = results.reduce((sum, r) => sum + r.ms, 0);
    return [
      `  <testsuite name="${operation}" tests="${results.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds(time)}" timestamp="${report.startedAt.slice(0, 19)}">`,
      // The seed replays the generated cases (--seed N); JUnit readers show properties per suite.
      report.kind === 'contract-run'
        ? `    <properties><property name="seed" value="${report.seed}"/><property name="examples" value="${report.examples}"/>${runFacts(report).map(([id, , text]) => `<property name="${id}" value="${xml(text)}"/>`).join('')}</properties>`
        : `    <properties><property name="violations" value="${report.violations}"/></properties>`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const s = report.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="animal-store ${run ? 'contract tests' : 'proxy checks'} (${xml(report.target.baseUrl)})" tests="${report.results.length}" failures="${s.failed}" errors="0" skipped="${s.skipped}" time="${seconds(report.ms)}">`,
    ...suites,
    ...(run ? [...silentSuite(run), ...driftSuite(run)] : []),
    '</testsuites>',
    '',
  ].join('\n');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * A rule's findings, grouped by cause: the example of a cause in full
 * (request, response, curl line) in the rule it came from; elsewhere one
 * line each and where the example is, so that a cause of 24 rules is not
 * printed 24 times. Each test case still says what failed in it.
 */
function findingsText(findings: readonly Finding[], report: VerdictReport): string {
  const lines: string[] = [];
  for (const f of findings) {
    const cause = report.causes.find((c) => c.id === f.cause);
    if (cause && cause.example.finding === f) lines.push(`${cause.id}: ${causeHeadline(cause)}`, ...describeFinding(f), '');
    else lines.push(`${f.message}${f.path ? ` (at ${f.path})` : ''}${cause ? ` [${cause.id}: ${cause.cause}; in full in ${cause.example.rule}]` : ''}`);
  }
  return lines.join('\n');
}

/** Every request answered alike (wrong-target.ts): one failed test case, not one per rule, as the rules judged nothing of the API. */
function wrongTargetReport(report: SuiteReport, wrong: WrongTarget): string {
  const name = xml(`animal-store contract tests (${report.target.baseUrl})`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="1" failures="1" errors="0" skipped="0" time="${seconds(report.ms)}">`,
    `  <testsuite name="target" tests="1" failures="1" errors="0" skipped="0" time="${seconds(report.ms)}" timestamp="${report.startedAt.slice(0, 19)}">`,
    // The seed, as on every other run's suites: a wrong target fixed, the same run can be made again.
    `    <properties><property name="seed" value="${report.seed}"/><property name="examples" value="${report.examples}"/></properties>`,
    `    <testcase classname="animal-store.target" name="the target answers as the Animal Store API" time="${seconds(report.ms)}">`,
    `      <failure message="${xml(wrong.message)}" type="wrong-target">${xml(`${wrong.matching === wrong.requests ? 'Every one' : `${wrong.matching}`} of the ${wrong.requests} requests of the run answered ${wrong.status}, so no rule was judged. Check --base-url (it must end in the API's /v1) and --api-key.`)}</failure>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Escapes text for XML 1.0, dropping the control characters it cannot carry at all. */
function xml(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Where the interface is silent: a suite without test cases whose output lists what the target answered. */
function silentSuite(report: SuiteReport): string[] {
  const lines = describeSilent(report.silent);
  if (lines.length === 0) return [];
  return [
    `  <testsuite name="where-the-interface-is-silent" tests="0" failures="0" errors="0" skipped="0" time="0" timestamp="${report.startedAt.slice(0, 19)}">`,
    `    <properties><property name="seed" value="${report.seed}"/></properties>`,
    `    <system-out>${xml(lines.join('\n'))}</system-out>`,
    '  </testsuite>',
  ];
}

/**
 * With --compare-with: one test case per cause of drift, failed when drift
 * fails the run (--fail-on-drift), else passing with the cause in its
 * output, so the file agrees with the exit code; the whole report in
 * <system-out>. A run without drift has one passing case.
 */
function driftSuite(report: SuiteReport): string[] {
  const drift = report.drift;
  if (!drift) return [];
  const cases = drift.groups.map((g) =>
    [
      `    <testcase classname="animal-store.drift" name="${xml(g.cause)}" time="0">`,
      drift.failsRun
        ? `      <failure message="${xml(`A ${g.a}, B ${g.b} (${g.cases} cases)`)}" type="drift">${xml(`A: ${g.example.a}\nB: ${g.example.b}`)}</failure>`
        : `      <system-out>${xml(`A ${g.a}, B ${g.b} (${g.cases} cases)\nA: ${g.example.a}\nB: ${g.example.b}`)}</system-out>`,
      '    </testcase>',
    ].join('\n'),
  );
  if (cases.length === 0) cases.push('    <testcase classname="animal-store.drift" name="the two targets answer alike" time="0"></testcase>');
  return [
    `  <testsuite name="drift" tests="${cases.length}" failures="${drift.failsRun ? drift.groups.length : 0}" errors="0" skipped="0" time="0" timestamp="${report.startedAt.slice(0, 19)}">`,
    `    <properties><property name="seed" value="${report.seed}"/><property name="compare-with" value="${xml(drift.b)}"/></properties>`,
    ...cases,
    `    <system-out>${xml(describeDrift(drift).join('\n'))}</system-out>`,
    '  </testsuite>',
  ];
}
