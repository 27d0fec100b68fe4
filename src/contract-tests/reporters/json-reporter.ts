import type { SuiteReport } from '../run-suite.js';
import { excerpt } from './excerpt.js';

/** The report as JSON, with response bodies cut to an excerpt so files stay small. */
export function jsonReport(report: SuiteReport): string {
  const results = report.results.map((r) => ({
    ...r,
    exchanges: r.exchanges.map(({ response, ...exchange }) => ({
      ...exchange,
      ...(response ? { response: { status: response.status, headers: response.headers, body: excerpt(response.body, 2000) } } : {}),
    })),
    findings: r.findings.map(({ exchange, ...finding }) => ({ ...finding, request: exchange ? `${exchange.request.method} ${exchange.request.url}` : undefined })),
  }));
  return `${JSON.stringify({ ...report, results }, null, 2)}\n`;
}
