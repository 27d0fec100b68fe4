import type { IncomingMessage } from 'node:http';
import { clip, errorBody, type ErrorBody } from '../../core/errors.js';

/**
 * Transfer codings node's parser lets through to the request event. The mock
 * understands `chunked` alone:
 * - one whose last coding is not `chunked` leaves the body's length unknown:
 *   400, then close (RFC 9112 §6.3);
 * - one that only ends in it (`gzip, chunked`) is de-chunked by node but
 *   still gzipped: 501, as RFC 9112 §6.1 says for a transfer coding the
 *   server does not understand.
 */
export function transferCodingProblem(req: IncomingMessage): ErrorBody | undefined {
  const header = req.headers['transfer-encoding'];
  if (header === undefined) return undefined;
  // The usual value, checked without splitting it.
  if (header === 'chunked') return undefined;
  const codings = header.split(',').map((coding) => coding.trim().toLowerCase());
  const quoted = (): string => JSON.stringify(clip(header));
  if (codings.at(-1) !== 'chunked') return errorBody('bad_request', `Transfer-Encoding ${quoted()} does not end in chunked, so the body has no length (RFC 9112 §6.3)`);
  if (codings.length > 1) return errorBody('not_implemented', `the mock does not implement the transfer coding ${quoted()}; send the body chunked alone or with Content-Length`);
  return undefined;
}
