import type { Finding, Reproduction, SilentEntry } from '../types.js';
import { curlLine } from '../curl-line.js';
import { excerpt } from './excerpt.js';

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
  const { request, response } = exchange;
  // Every failure can be replayed by hand; a generated one already printed its case's lines.
  if (!finding.reproduce) lines.push(`replay:   ${curlLine(request)}`);
  lines.push(`request:  ${request.method} ${request.url}`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`          ${name}: ${value}`);
  if (request.body !== undefined) lines.push(`          body: ${excerpt(request.body, 300)}`);
  if (!response) {
    lines.push(`response: none (${exchange.networkError})`);
    return lines;
  }
  lines.push(`response: ${response.status}`);
  for (const [name, value] of Object.entries(response.headers)) lines.push(`          ${name}: ${value}`);
  lines.push(`          body: ${excerpt(response.body)}`);
  return lines;
}

/** A generated case's replay: what it was, the curl line(s), the seed. */
export function describeReproduction(r: Reproduction): string[] {
  const steps = r.shrinks > 0 ? `found after ${r.tried} cases, shrunk in ${r.shrinks} steps` : `case ${r.tried}`;
  return [`case:     ${r.case} (${steps})`, ...r.curl.split('\n').map((line, i) => `${i === 0 ? 'replay:  ' : '         '} ${line}`), `seed:     ${r.seed} (--seed ${r.seed} sends the same cases)`];
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
