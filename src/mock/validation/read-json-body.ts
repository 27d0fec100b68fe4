import type { OperationSpec } from '../../contract/operations.js';
import { fail, ok, type Result } from '../errors.js';
import { describeErrors } from './describe-errors.js';

/**
 * Checks a request body against the operation's documented media types and
 * schema: a JSON media type, a non-empty body, well-formed JSON, and the
 * schema compiled from the document. Returns the parsed value, or an Error
 * body naming the first kind of problem found.
 */
export function readJsonBody(
  body: NonNullable<OperationSpec['body']>,
  contentType: string | undefined,
  text: string,
): Result<unknown> {
  if (text.length === 0) {
    return body.required ? fail('missing_body', 'the request body is required: send a JSON object') : ok(undefined);
  }
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (!mediaType || !body.mediaTypes.includes(mediaType)) {
    return fail(
      'unsupported_content_type',
      `Content-Type must be ${body.mediaTypes.join(' or ')}, got ${contentType ? JSON.stringify(contentType) : 'none'}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail('malformed_json', `the request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!body.validate(value)) return fail('invalid_body', describeErrors(body.validate.errors));
  return ok(value);
}
