import type { Duplex } from 'node:stream';
import { errorBody, type ErrorBody } from '../../core/errors.js';
import { isDone, type Connections } from './connections.js';
import type { LingeringClose } from './lingering-close.js';
import { rawErrorAnswer, type ExtraHeaders } from './error-answer.js';

/** The error node's parser (llhttp) or its timers raise, as 'clientError' passes it. */
type ClientError = NodeJS.ErrnoException & { reason?: string };

/**
 * The Error body for what node refused: the statuses node's own default
 * handler picks (431, 413, 408, else 400), with a body.
 */
function clientErrorBody(error: ClientError, maxHeaderBytes: number): ErrorBody {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errorBody('headers_too_large', `the request line and headers are larger than the server accepts (${maxHeaderBytes / 1024} KiB)`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errorBody('payload_too_large', 'the chunk extensions of the request body are larger than the server accepts');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorBody('request_timeout', 'the request did not arrive in time (see docs/reference.md: connection bounds)');
    case 'HPE_PAUSED_H2_UPGRADE':
      return errorBody('bad_request', 'this port speaks HTTP/1.1, not HTTP/2 with prior knowledge');
    default:
      return errorBody('bad_request', `the request cannot be read as HTTP/1.1 (${error.code ?? 'parse error'}: ${error.reason ?? error.message})`);
  }
}

/**
 * The server's 'clientError' handler (node docs, http.Server 'clientError'):
 * with a listener, node leaves the socket to it, so this answers with an
 * Error body and closes. Two cases must not answer at once:
 * - the request being read already has its answer started (a 401 sent
 *   before its broken body arrived): a second answer would be read as the
 *   answer to a next request, so the connection is only closed;
 * - the error is in bytes after requests still being answered (pipelined
 *   garbage): answers go in the order of the requests (RFC 9112 §9.3.2), so
 *   the Error comes after theirs.
 */
export function clientErrors(connections: Connections, lingering: LingeringClose, extra: ExtraHeaders, maxHeaderBytes: number) {
  return (error: ClientError, socket: Duplex): void => {
    // A socket reset by the client, or refused for the connection limit, cannot take an answer.
    if (error.code === 'ECONNRESET' || connections.refused(socket)) {
      socket.destroy();
      return;
    }
    const answer = (): void => {
      // Not writable: node is closing it, after an answer that said `Connection: close`; nothing may follow that (RFC 9112 §9.6).
      if (socket.writable) lingering.close(socket, rawErrorAnswer(clientErrorBody(error, maxHeaderBytes), extra));
    };
    const last = connections.last(socket);
    if (last && !last.req.complete) {
      // The error is in this request's own body. Its answer may be on the wire already (written at once, as a 401 is):
      // then only a close, which lets the client read that answer.
      if (last.res.headersSent) lingering.close(socket);
      else answer();
      return;
    }
    if (!last || isDone(last)) {
      answer();
      return;
    }
    // After the answers before it; node's 'close' of an answer comes once it is sent and node has kept or closed the connection.
    last.res.once('close', () => (last.res.writableFinished ? answer() : socket.destroy()));
  };
}
