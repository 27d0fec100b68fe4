import { splitOutsideQuotes } from '../../../shared/split-outside-quotes.js';

/**
 * The preferences of a `Prefer` header (RFC 7240 §2): comma-separated
 * `token [= word]`, each with `;` parameters (ignored here). Names are
 * case-insensitive; a quoted value is unquoted; a name given twice counts
 * once, the first time (§2). Several `Prefer` headers arrive joined by
 * commas, which is the same list. The value is undefined when no `=` is given.
 */
export function parsePrefer(header: string): Map<string, string | undefined> {
  const preferences = new Map<string, string | undefined>();
  for (const item of splitOutsideQuotes(header, ',')) {
    const head = (splitOutsideQuotes(item, ';')[0] ?? '').trim();
    if (head === '') continue;
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    if (name === '' || preferences.has(name)) continue;
    const raw = eq < 0 ? undefined : head.slice(eq + 1).trim();
    preferences.set(name, raw !== undefined && raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return preferences;
}
