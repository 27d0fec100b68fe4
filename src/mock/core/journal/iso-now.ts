let lastMs = Number.NaN;
let lastText = '';

/**
 * The time now as ISO 8601 in UTC with ms, as a journal entry's `at`.
 * Formatting a Date is a good part of what an entry's details cost; under
 * load many requests are answered within one ms, so the text
 * is made once a ms and shared (a string: nothing can change it).
 */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = new Date(ms).toISOString();
  }
  return lastText;
}
