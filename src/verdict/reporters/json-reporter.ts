import type { Report } from '../report.js';
import type { Finding } from '../exchange.js';
import type { Shown } from '../shown-report.js';

/** A finding with its exchange named by its request line: the exchange itself is in the rule's `exchanges`. */
const shownFinding = ({ exchange, ...finding }: Finding) => ({ ...finding, request: exchange ? `${exchange.request.method} ${exchange.request.url}` : undefined });

/** The report as JSON, its bodies cut (shown-report.ts, JSON_ANSWER_BODY_SHOWN for answers) so files stay small. */
export const jsonReport = (report: Shown<Report>): string => `${JSON.stringify(jsonReportObject(report), null, 2)}\n`;

/** The report `--reporter json` writes, as an object (`runContract` resolves to it). */
export function jsonReportObject(shown: Shown<Report>) {
  // The brand is a type only: what is written is a plain report.
  const report: Report = shown;
  const results = report.results.map((r) => ({
    ...r,
    exchanges: r.exchanges.map(({ response, ...exchange }) => ({
      ...exchange,
      ...(response ? { response: { status: response.status, headers: response.headers, body: response.body, ...(response.bodyChars === undefined ? {} : { bodyChars: response.bodyChars }) } } : {}),
    })),
    findings: r.findings.map(shownFinding),
  }));
  const causes = report.causes.map((c) => ({ ...c, example: { rule: c.example.rule, finding: shownFinding(c.example.finding) } }));
  return { ...report, results, causes };
}
