import type { SilentEntry } from '../report.js';
import type { RecordedExchange, Finding, Reproduction } from '../exchange.js';
import { curlLine } from '../curl-line.js';
import { ANSWER_BODY_SHOWN, REQUEST_BODY_SHOWN, shownBody } from '../shown-body.js';

/**
 * A finding as lines of text: the request (method, URL, redacted headers,
 * body), what was expected and the statement it comes from, and what came
 * back (status, headers, a body excerpt). Used by every reporter.
 */
export function describeFinding(finding: Finding): string[] {
  const lines = [`${finding.message}${finding.path ? ` (at ${finding.path})` : ''}`, `expected: ${finding.expected}`];
  if (finding.reproduce) lines.push(...describeReproduction(finding.reproduce));
  const exchange = finding.exchange;
  if (!exchange) return lines;
  // Every failure can be replayed by hand; a generated one already printed its case's lines.
  if (!finding.reproduce) lines.push(`replay:   ${curlLine(exchange.request)}`);
  const labelled = (label: string, [first, ...rest]: string[]) => [`${label.padEnd(10)}${first}`, ...rest.map((line) => `          ${line}`)];
  lines.push(...labelled('request:', requestLines(exchange.request)), ...labelled('response:', responseLines(exchange)));
  return lines;
}

/** A request as it was sent: its line, its headers (the key redacted), a body excerpt. */
export function requestLines(request: RecordedExchange['request']): string[] {
  // A field sent over several lines is shown as sent, a line each.
  const lines = [`${request.method} ${request.url}`, ...Object.entries(request.headers).flatMap(([name, value]) => [value].flat().map((one) => `${name}: ${one}`))];
  if (request.body !== undefined) lines.push(`body: ${shownBody(request.body, REQUEST_BODY_SHOWN, request.bodyChars)}`);
  return lines;
}

/** What came back: the status, the headers and a body excerpt, or why nothing did. */
export function responseLines({ response, networkError }: RecordedExchange): string[] {
  if (!response) return [`none (${networkError})`];
  return [String(response.status), ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`), `body: ${shownBody(response.body, ANSWER_BODY_SHOWN, response.bodyChars)}`];
}

/** How a generated case was found: its number, or the cases tried and the shrinking steps. */
export const caseSteps = (r: Reproduction): string => (r.shrinks > 0 ? `found after ${r.tried} cases, shrunk in ${r.shrinks} steps` : `case ${r.tried}`);

/** A generated case's replay: what it was, the curl line(s), the seed. */
export function describeReproduction(r: Reproduction): string[] {
  return [`case:     ${r.case} (${caseSteps(r)})`, ...r.curl.split('\n').map((line, i) => `${i === 0 ? 'replay:  ' : '         '} ${line}`), `seed:     ${r.seed} (--seed ${r.seed} sends the same cases)`];
}

/** The section on what the target answered where the interface is silent. */
export function describeSilent(entries: readonly SilentEntry[]): string[] {
  if (entries.length === 0) return [];
  const lines = ['Where the interface is silent, this target answered:'];
  for (const entry of entries) {
    lines.push(`  ${entry.question}`);
    for (const a of entry.answers) lines.push(`    ${a.answer}${a.count > 1 ? ` (${a.count} times)` : ''}`, `      e.g. ${a.example}`);
  }
  return lines;
}
