import type { OperationSpec } from '../../../document/operations.js';
import { fail, ok, type Result } from '../result.js';
import { profiledError, type ErrorBody } from '../errors.js';
import { parseExactJson, RepeatedMember, unreadJson, type ExactJson } from '../../../shared/exact-json/parse-exact-json.js';
import type { ProfileChoices } from '../../../shared/profile/profile-points.js';
import { describeErrors } from './describe-errors.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A body read, or its Error; `chosen` when the Error is the profile's answer as it stands (a member named twice). */
export type BodyRead = Result<unknown> | { ok: false; error: ErrorBody; chosen: true };

/**
 * Checks a request body against the operation's documented media types and
 * schema: a JSON media type, a non-empty body, well-formed JSON (a member
 * named twice read as `duplicates` says), and the schema compiled from the
 * document. Returns the parsed value, or an Error body naming the first
 * kind of problem found.
 */
export function readJsonBody(
  body: NonNullable<OperationSpec['body']>,
  contentType: string | undefined,
  bytes: Uint8Array,
  contentEncoding?: string | undefined,
  duplicates: ProfileChoices['duplicate-member'] = 'last-wins',
): BodyRead {
  // The mock does not decompress; reading gzip bytes as JSON would only give
  // a confusing parse error (RFC 9110 §8.4).
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    return fail('unsupported_content_encoding', `Content-Encoding ${JSON.stringify(contentEncoding)} is not supported: send the JSON uncompressed`);
  }
  if (bytes.byteLength === 0) {
    return body.required ? fail('missing_body', 'the request body is required: send a JSON object') : ok(undefined);
  }
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (!mediaType || !body.mediaTypes.includes(mediaType)) {
    return fail(
      'unsupported_content_type',
      `Content-Type must be ${body.mediaTypes.join(' or ')}, got ${contentType ? JSON.stringify(contentType) : 'none'}`,
    );
  }
  // RFC 8259 §8.1: JSON is UTF-8. A lenient decoder would store U+FFFD in
  // place of the bad bytes, silently changing the client's data. A BOM is
  // dropped (§8.1 lets a parser ignore it).
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return fail('malformed_json', 'the request body is not valid UTF-8 (RFC 8259 §8.1)');
  }
  // Read exactly: an int64 past 2^53 keeps its digits (a bigint), and the
  // schema judges its view, where "within int64" is "a safe integer".
  let json: ExactJson;
  try {
    json = parseExactJson(text, { duplicates: typeof duplicates === 'string' ? duplicates : 'refused' });
  } catch (error) {
    if (error instanceof RepeatedMember && typeof duplicates === 'object') return { ok: false, error: profiledError(duplicates, `the request body ${error.message}`), chosen: true };
    return fail('malformed_json', `the request body ${unreadJson(error)}`);
  }
  if (!body.validate(json.view)) return fail('invalid_body', describeErrors(body.validate.errors));
  return ok(json.value);
}
