import { journalHeaders, MAX_JOURNAL_HEADER_CHARS, MAX_JOURNAL_HEADERS, MAX_JOURNAL_HEADERS_CHARS } from './journal-headers.js';
import { journalMessage, MAX_JOURNAL_REQUEST_BODY } from './journal-message.js';
import type { JournalMessage } from './request-journal.js';

/**
 * The request part of a journal entry. Its headers are formatted (names
 * lower-cased, repeats joined, credentials redacted: journal-headers.ts)
 * only when the entry is first read: as JSON by the admin API, the journal
 * stream or the Redis store. Formatting them for every request cost about a
 * fifth of the mock's CPU per request (BENCHMARKS.md), and most
 * entries are overwritten unread. Until then the entry holds node's
 * `rawHeaders` array, only when it is within the same bounds the formatted
 * headers keep (so the journal's memory bound holds either way); a request
 * beyond them is formatted at once.
 */
export function journalRequest(raw: readonly string[], body: string): JournalMessage {
  if (!withinBounds(raw)) {
    const { headers, truncated } = journalHeaders(raw);
    return journalMessage(headers, body, MAX_JOURNAL_REQUEST_BODY, truncated);
  }
  // Most requests send no body, or a short one: kept as it is, with no message made only to be taken apart.
  if (body.length <= MAX_JOURNAL_REQUEST_BODY) return new UnreadRequest(raw, body, undefined);
  const { body: kept, bodyTruncated } = journalMessage(NO_HEADERS, body, MAX_JOURNAL_REQUEST_BODY);
  return new UnreadRequest(raw, kept, bodyTruncated);
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Whether journalHeaders would keep every header as sent: no cut, nothing left out. Reads lengths only: no string is made. */
function withinBounds(raw: readonly string[]): boolean {
  if (raw.length > 2 * MAX_JOURNAL_HEADERS) return false;
  let used = 0;
  for (const text of raw) {
    if (text.length > MAX_JOURNAL_HEADER_CHARS) return false;
    used += text.length;
  }
  return used <= MAX_JOURNAL_HEADERS_CHARS;
}

/** A request whose headers are formatted when first read, then kept formatted (the raw array let go). */
class UnreadRequest implements JournalMessage {
  #raw: readonly string[] | undefined;
  #headers: Record<string, string> | undefined;
  readonly body: string;
  readonly bodyTruncated: true | undefined;
  // Within the bounds, nothing is left out or cut.
  readonly headersTruncated = undefined;

  constructor(raw: readonly string[], body: string, bodyTruncated: true | undefined) {
    this.#raw = raw;
    this.body = body;
    this.bodyTruncated = bodyTruncated;
  }

  get headers(): Record<string, string> {
    if (this.#headers === undefined) {
      this.#headers = journalHeaders(this.#raw ?? []).headers;
      this.#raw = undefined;
    }
    return this.#headers;
  }

  /** What JSON shows: the same fields as any JournalMessage (a getter is not an own property, so it is named here). */
  toJSON(): JournalMessage {
    return { headers: this.headers, body: this.body, bodyTruncated: this.bodyTruncated, headersTruncated: this.headersTruncated };
  }
}
