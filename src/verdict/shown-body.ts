import { REDACTED_KEY } from './redact-key.js';

/** The most characters of a request's body a report shows, a curl line's included. */
export const REQUEST_BODY_SHOWN = 300;
/** The most characters of an answer's body the text reports (pretty, summary, JUnit, HTML, GitHub, Markdown) show. */
export const ANSWER_BODY_SHOWN = 600;
/** The most characters of an answer's body the JSON report keeps: a tool reading it gets more to go on than a reader. */
export const JSON_ANSWER_BODY_SHOWN = 2000;

/** A body as a report holds it: its start, and how many characters the whole had when that start is all. */
export interface ShownBody {
  body: string;
  /** Set only when `body` is cut: the length of what was sent or received, in UTF-16 units as `body`'s. */
  bodyChars?: number;
}

/**
 * At most `max` characters of a body. The text is already redacted (the
 * client hides the key in the whole body before anything is cut), so a
 * key cut here is already `<API key>`; the cut never falls inside that
 * placeholder either (`<API k` would read as something else), nor between
 * the two halves of a character past U+FFFF, which would leave a lone
 * surrogate that XML cannot hold.
 */
export function cutBody(text: string, max: number, already?: number): ShownBody {
  if (text.length <= max) return already === undefined ? { body: text } : { body: text, bodyChars: already };
  let end = max;
  const placeholder = text.lastIndexOf(REDACTED_KEY, end);
  if (placeholder !== -1 && placeholder < end && placeholder + REDACTED_KEY.length > end) end = placeholder;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { body: text.slice(0, end), bodyChars: already ?? text.length };
}

/** A body for a line of a text report: `(empty)`, or at most `max` characters of it, marked with the whole's length when cut. */
export function shownBody(text: string | undefined, max: number, already?: number): string {
  if (text === undefined || text === '') return '(empty)';
  const { body, bodyChars } = cutBody(text, max, already);
  return bodyChars === undefined ? body : `${body}… (${bodyChars} characters)`;
}
