/**
 * A store URL as messages, logs and the banner show it: never its password
 * (a terminal, a CI log or a log collector is no place for it). A URL that
 * does not parse still has anything between `:` and `@` masked.
 */
export function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return text.replace(/:[^:@/]*@/, ':***@');
  }
}
