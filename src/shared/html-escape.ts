// Here, not in the report's folder: the one place both the harness's HTML report and the mock's /docs page may import.
/**
 * Text for an HTML page: everything a report shows came from a server or a
 * command line, so all of it goes through here, in text and in attribute
 * values alike (quotes escaped, so one function serves both).
 */
export function escapeHtml(text: string): string {
  return (
    text
      // Control characters would be dropped or replaced by the HTML parser
      // (WHATWG HTML § 13.2.5); shown as their Control Pictures (U+2400…), a
      // reader still sees they were there. Tab, line feed and carriage return stay.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, (c) => String.fromCharCode(c === '\u007F' ? 0x2421 : 0x2400 + c.charCodeAt(0)))
      // Bidirectional controls (Unicode's Bidi_Control: ALM, LRM, RLM, the
      // embeddings and overrides, the isolates) reorder the text around them,
      // so a shown line could read other than what the server sent (CVE-2021-42574,
      // "Trojan Source"); shown as their code points, a reader sees they were there.
      .replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, (c) => `⟪U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟫`)
      // Noncharacters: U+FFFD, as an invalid byte sequence would show.
      .replace(/[\uFFFE\uFFFF]/g, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
  );
}
