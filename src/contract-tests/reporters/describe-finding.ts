import type { Finding } from '../types.js';
import { excerpt } from './excerpt.js';

/**
 * A finding as lines of text: the request (method, URL, redacted headers,
 * body), what was expected and the statement it comes from, and what came
 * back (status, headers, a body excerpt). Used by every reporter.
 */
export function describeFinding(finding: Finding): string[] {
  const lines = [`${finding.message}${finding.path ? ` (at ${finding.path})` : ''}`, `expected: ${finding.expected}`];
  const exchange = finding.exchange;
  if (!exchange) return lines;
  const { request, response } = exchange;
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
