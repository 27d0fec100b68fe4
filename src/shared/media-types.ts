import { splitOutsideQuotes } from './split-outside-quotes.js';

/**
 * The media types a Content-Type value lists. The recorded value joins a
 * field sent twice with `, ` (RFC 9110 §5.3), and a comma is no part of a
 * media type outside a quoted parameter value (§8.3.1, §5.6.6), so either
 * form shows as more than one. Empty elements are not counted.
 */
export const mediaTypesOf = (contentType: string): string[] =>
  splitOutsideQuotes(contentType, ',')
    .map((type) => type.trim())
    .filter((type) => type !== '');
