/**
 * A store URL as messages, logs and the banner show it: never its password
 * (a terminal, a CI log or a log collector is no place for it). A URL that
 * does not parse (a password with a `/` or `#` in it, which generated
 * base64 passwords often have) has all it holds up to its last `@` masked:
 * what in it is the password cannot be told apart from the rest.
 */
export function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    const at = text.lastIndexOf('@');
    if (at === -1) return text;
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text)?.[0] ?? '';
    return `${scheme}***${text.slice(at)}`;
  }
}
