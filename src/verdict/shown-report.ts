import type { Finding, RecordedExchange } from './exchange.js';
import type { FailureCause, Report, RuleResult } from './report.js';
import { ANSWER_BODY_SHOWN, cutBody, REQUEST_BODY_SHOWN } from './shown-body.js';

declare const SHOWN: unique symbol;

/**
 * A report whose every body is cut to what reports show (shownReport):
 * the only kind a reporter takes, so no reporter, a new one included, can
 * print a body whole. A type only: the value is a plain report.
 */
export type Shown<R extends Report> = R & { readonly [SHOWN]: true };

/**
 * The report with every request body cut to REQUEST_BODY_SHOWN characters
 * and every answer body to `answerChars` (ANSWER_BODY_SHOWN unless the
 * reporter keeps more), in the rules' exchanges, their findings and the
 * causes' examples alike. A run keeps the whole bodies (its rules and its
 * drift compare them); what is written of them is bounded here, once.
 */
export function shownReport<R extends Report>(report: R, { answerChars = ANSWER_BODY_SHOWN }: { answerChars?: number } = {}): Shown<R> {
  const exchanges = new Map<RecordedExchange, RecordedExchange>();
  const exchange = (x: RecordedExchange): RecordedExchange => {
    let shown = exchanges.get(x);
    if (!shown) {
      shown = shownExchange(x, answerChars);
      exchanges.set(x, shown);
    }
    return shown;
  };
  // One shown finding per finding: a cause's example is the same object as the finding in its rule (the reporters compare them).
  const findings = new Map<Finding, Finding>();
  const finding = (f: Finding): Finding => {
    let shown = findings.get(f);
    if (!shown) {
      shown = f.exchange ? { ...f, exchange: exchange(f.exchange) } : f;
      findings.set(f, shown);
    }
    return shown;
  };
  const results = report.results.map((r): RuleResult => ({ ...r, exchanges: r.exchanges.map(exchange), findings: r.findings.map(finding) }));
  const causes = report.causes.map((c): FailureCause => ({ ...c, example: { ...c.example, finding: finding(c.example.finding) } }));
  return { ...report, results, causes } as Shown<R>;
}

function shownExchange(x: RecordedExchange, answerChars: number): RecordedExchange {
  const { request, response } = x;
  const shown: RecordedExchange = { ...x, request: request.body === undefined ? request : { ...request, ...cutBody(request.body, REQUEST_BODY_SHOWN, request.bodyChars) } };
  // The parsed body goes too: no reporter reads it, and it is the whole body again.
  if (response) {
    const { view: _view, ...rest } = response;
    shown.response = { ...rest, json: undefined, ...cutBody(response.body, answerChars, response.bodyChars) };
  }
  return shown;
}
