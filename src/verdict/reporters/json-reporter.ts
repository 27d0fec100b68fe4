import type { Report } from '../report.js';
import type { Finding } from '../exchange.js';
import { excerpt } from './excerpt.js';

/** A finding with its exchange named by its request line: the exchange itself is in the rule's `exchanges`. */
const shownFinding = ({ exchange, ...finding }: Finding) => ({ ...finding, request: exchange ? `${exchange.request.method} ${exchange.request.url}` : undefined });

/** The report as JSON, with response bodies cut to an excerpt so files stay small. */
export const jsonReport = (report: Report): string => `${JSON.stringify(jsonReportObject(report), null, 2)}\n`;

/** The report `--reporter json` writes, as an object (`runContract` resolves to it). */
export function jsonReportObject(report: Report) {
  const results = report.results.map((r) => ({
    ...r,
    exchanges: r.exchanges.map(({ response, ...exchange }) => ({
      ...exchange,
      ...(response ? { response: { status: response.status, headers: response.headers, body: excerpt(response.body, 2000) } } : {}),
    })),
    findings: r.findings.map(shownFinding),
  }));
  const causes = report.causes.map((c) => ({ ...c, example: { rule: c.example.rule, finding: shownFinding(c.example.finding) } }));
  return { ...report, results, causes };
}
