import { jsonText } from './json-text.js';

/**
 * A NewPet as a browser's `FormData` and `curl -F name=… -F categoryId=…`
 * send it: `multipart/form-data` (RFC 7578), one part per member, named as
 * the member, holding its text (a string as it is, any other value as its
 * JSON text). A CORS-safelisted type (Fetch standard): a page sends it to
 * any site without a preflight. Not the interface's media type, so a server
 * may refuse it; without the key it must store nothing.
 */

/** A boundary as a browser draws one: no member's text holds it (RFC 2046 §5.1.1 leaves its choice to the sender). */
const BOUNDARY = '----contract-test-form-7MA4YWxkTrZu0gW';

export const FORM_DATA_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Whether a body's media type is the one this module writes. */
export const isFormData = (contentType: string | null | undefined): boolean => contentType === FORM_DATA_TYPE;

/** The parts, each with its Content-Disposition (RFC 7578 §4.2), CRLF line ends, and the closing delimiter. */
export function formDataBody(members: Record<string, unknown>): string {
  const parts = Object.entries(members).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : jsonText(value)}\r\n`);
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}
