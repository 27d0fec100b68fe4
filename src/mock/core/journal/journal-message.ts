import { ownCopy } from '../own-copy.js';
import type { JournalMessage } from './request-journal.js';

/** The start of a request's body a journal entry keeps (characters). */
export const MAX_JOURNAL_REQUEST_BODY = 1024;
/** The start of an answer's body a journal entry keeps (characters). */
export const MAX_JOURNAL_RESPONSE_BODY = 2048;

/**
 * A request or an answer as the journal keeps it: `body` itself when it is
 * short enough (no copy: the common case costs nothing), else its first
 * `max` characters as their own copy (see ownCopy: a slice would keep the
 * whole body alive), flagged `bodyTruncated`.
 */
export function journalMessage(headers: Record<string, string>, body: string, max: number, headersTruncated?: true): JournalMessage {
  if (body.length <= max) return { headers, body, bodyTruncated: undefined, headersTruncated };
  return { headers, body: ownCopy(cut(body, max)), bodyTruncated: true, headersTruncated };
}

/** The first `max` UTF-16 units of `text`, one fewer rather than half a surrogate pair (which JSON would show as a lone escape). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

// Not fatal: the journal shows what was sent, invalid UTF-8 as U+FFFD.
const UTF8 = new TextDecoder('utf-8');

/**
 * A request body's bytes as the journal's text: only the bytes that can
 * make its first `max` characters are decoded, so a 1 MiB body costs no
 * more than a small one. UTF-8 takes at most three bytes a UTF-16 unit, so
 * `4 * max` bytes always make more than `max` units: a longer body is
 * still seen as longer, and cut.
 */
export function bodyText(bytes: Uint8Array | undefined, max = MAX_JOURNAL_REQUEST_BODY): string {
  if (bytes === undefined || bytes.byteLength === 0) return '';
  return UTF8.decode(bytes.byteLength > 4 * max ? bytes.subarray(0, 4 * max) : bytes);
}
