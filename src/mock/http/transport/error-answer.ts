import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ErrorBody } from '../../core/errors.js';

/** Headers every transport answer carries beside its own: CORS, when every origin is allowed. */
export type ExtraHeaders = Readonly<Record<string, string>>;

/**
 * The headers and text of an Error answer given before (or instead of) the
 * app. Always `Connection: close`: a request refused at this level may have
 * a body nobody will read, or no trustworthy framing at all (RFC 9112 §6.3,
 * §9.6), so the connection is not reused after it.
 */
function errorMessage(body: ErrorBody, extra: ExtraHeaders): { text: string; headers: Record<string, string> } {
  const text = JSON.stringify(body);
  return {
    text,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...extra, connection: 'close' },
  };
}

/** The Error answer as a whole HTTP/1.1 message, for a socket that no ServerResponse owns (node's 'clientError'). */
export function rawErrorAnswer(body: ErrorBody, extra: ExtraHeaders): string {
  const { text, headers } = errorMessage(body, extra);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}\r\n${lines.join('')}\r\n${text}`;
}

/** The Error answer as a fetch Response, for @hono/node-server's errorHandler. */
export function errorResponse(body: ErrorBody, extra: ExtraHeaders): Response {
  const { text, headers } = errorMessage(body, extra);
  return new Response(text, { status: body.status, headers });
}

/** The Error answer through node's ServerResponse, for a request node parsed but the mock refuses before the app. */
export function sendErrorAnswer(res: ServerResponse, body: ErrorBody, extra: ExtraHeaders): void {
  const { text, headers } = errorMessage(body, extra);
  res.writeHead(body.status, headers);
  res.end(text);
}
