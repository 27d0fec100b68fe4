import type { Duplex } from 'node:stream';
import { errorBody, type ErrorBody } from '../core/errors.js';

/**
 * Errors raised before the app sees a request still get the Error body.
 * Node's HTTP parser refuses some requests itself (a bad request line or
 * method, headers over its 16 KiB limit) and @hono/node-server refuses
 * others (a Host header that is not a host); by default both answer with a
 * bare status line.
 */

export interface TransportErrorHandlers {
  /** @hono/node-server's errorHandler: a request it could not turn into a fetch Request. */
  requestError(error: unknown): Response;
  /** The server's `clientError` event (node docs, http.Server 'clientError'): answer, then close. */
  clientError(error: NodeJS.ErrnoException, socket: Duplex): void;
}

/**
 * The Origin of such a request is not known, so `Access-Control-Allow-Origin`
 * is sent only when every origin is allowed (the default).
 */
export function transportErrors(anyOrigin: boolean): TransportErrorHandlers {
  const cors: Record<string, string> = anyOrigin ? { 'access-control-allow-origin': '*' } : {};
  return {
    requestError(error) {
      const body = errorBody('bad_request', `the request cannot be read: ${(error as Error).message}`);
      return new Response(JSON.stringify(body), { status: body.status, headers: { 'content-type': 'application/json', ...cors } });
    },
    clientError: (error, socket) => answerClientError(error, socket, cors),
  };
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, cors: Record<string, string>): void {
  // A socket already writing, or reset by the client, cannot take an answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const body: ErrorBody =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errorBody('headers_too_large', 'the request headers are larger than the server accepts (16 KiB)')
      : errorBody('bad_request', `the request cannot be read as HTTP/1.1 (${error.code ?? error.message})`);
  const text = JSON.stringify(body);
  const reason = body.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${body.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      Object.entries(cors).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      `Connection: close\r\n\r\n${text}`,
  );
}
