import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { EXCHANGE_CHECKS, type ExchangeCheckId } from '../../../verdict/exchange-check-ids.js';
import { failureCauses } from '../../../verdict/failure-causes.js';
import { htmlReport } from '../../../verdict/reporters/html-reporter.js';
import { jsonReport } from '../../../verdict/reporters/json-reporter.js';
import { junitReport } from '../../../verdict/reporters/junit-reporter.js';
import type { ProxyReport, RuleResult } from '../../../verdict/report.js';
import { JSON_ANSWER_BODY_SHOWN } from '../../../verdict/shown-body.js';
import { shownReport } from '../../../verdict/shown-report.js';
import type { ReportCause } from '../../core/proxy/report-causes.js';

/** The formats `--proxy-report FILE` writes, by FILE's extension: the harness's own reporters. */
export const PROXY_REPORT_FORMATS = { '.json': 'JSON', '.xml': 'JUnit XML', '.html': 'HTML' } as const;

export type ProxyReportFormat = keyof typeof PROXY_REPORT_FORMATS;

export const proxyReportFormat = (file: string): ProxyReportFormat | undefined => {
  const extension = extname(file).toLowerCase();
  return extension in PROXY_REPORT_FORMATS ? (extension as ProxyReportFormat) : undefined;
};

export interface ProxyReportContext {
  /** The target's base URL (it holds no credentials: `--proxy` refuses them). */
  target: string;
  startedAt: Date;
  version: string;
}

/**
 * The violations proxy mode saw, as a report of its own: one failed result
 * per cause (an operation's answers breaking one statement), named by the
 * checks' ids, with how many exchanges broke it and the last one as a curl
 * line (keys redacted). Written by the harness's JSON, JUnit and HTML
 * reporters, so a CI server reads a day's traffic as it reads a contract run.
 */
export function proxyReport(causes: readonly ReportCause[], context: ProxyReportContext, format: ProxyReportFormat): string {
  // Grouped as the harness groups a run's findings (failure-causes.ts), which every reporter leads with.
  const { results, causes: grouped } = failureCauses(causes.map(result), { requests: causes.reduce((sum, cause) => sum + cause.count, 0), bySignature: new Map() }, new Map());
  const violations = causes.reduce((sum, cause) => sum + cause.count, 0);
  const report: ProxyReport = {
    kind: 'proxy-traffic',
    target: { baseUrl: context.target },
    startedAt: context.startedAt.toISOString(),
    ms: Date.now() - context.startedAt.getTime(),
    results,
    causes: grouped,
    summary: { passed: 0, failed: results.length, skipped: 0, warnings: 0, contractFailed: results.length },
    violations,
    ok: results.length === 0,
  };
  if (format === '.json') return jsonReport(shownReport(report, { answerChars: JSON_ANSWER_BODY_SHOWN }));
  if (format === '.xml') return junitReport(shownReport(report));
  return htmlReport(shownReport(report), { version: context.version });
}

export function writeProxyReport(file: string, causes: readonly ReportCause[], context: ProxyReportContext): void {
  writeFileSync(file, proxyReport(causes, context, proxyReportFormat(file) ?? '.json'));
}

function result(cause: ReportCause): RuleResult {
  const check = EXCHANGE_CHECKS[cause.rules[0] as ExchangeCheckId] ?? { section: 'Proxy mode', text: cause.statement };
  const times = cause.count === 1 ? 'one exchange' : `${cause.count} exchanges`;
  return {
    id: cause.rules.join('+'),
    title: `${times} broke it, the last at ${cause.last.seen} (status ${cause.last.status})`,
    operation: cause.operation,
    writes: false,
    severity: 'contract',
    statement: { section: check.section, text: check.text },
    status: 'failed',
    findings: [{ level: 'error', message: `${cause.last.detail}; the last request: ${cause.last.curl}`, expected: cause.statement, check: cause.rules[0] as ExchangeCheckId }],
    exchanges: [],
    ms: 0,
  };
}
