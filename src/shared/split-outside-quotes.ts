/**
 * A field value split at each `separator` outside a quoted string (RFC 9110
 * §5.6.4: a quoted string may hold the separator, and `\` escapes the next
 * character in it). The parts are as written, white space and empty ones kept.
 * Read by the mock (a `Prefer` list) and the checks (a Content-Type's media types).
 */
export function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '\\') i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
