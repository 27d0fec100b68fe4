import type { IncomingMessage, RequestListener } from 'node:http';
import { answerAsteriskForm } from './asterisk-form.js';
import type { AdmitRequest } from './connection-limit.js';
import type { Connections } from './connections.js';
import { sendErrorAnswer, type ExtraHeaders } from './error-answer.js';
import { defaultHost, hostProblem } from './host-check.js';
import { transferCodingProblem } from './transfer-coding-check.js';
import { lowerCaseScheme } from './scheme-case.js';

/**
 * Once its answer is out, the rest of a request's body is read and
 * dropped. Node does so itself only for a body nobody began to read, and
 * the node adapter's own drain does not reach one the app began (a chunked
 * body counted until it passed the limit): its reading would stop with the
 * client still sending, and the client would not read the answer. Bounded
 * by the lingering close once the answer closed the connection; on one kept
 * open, by the adapter (0.5 s, then a lingering close too).
 */
function dropRest(req: IncomingMessage): void {
  if (req.complete) return;
  req.removeAllListeners('data');
  req.resume();
}

/** A request with a body (RFC 9112 §6.3): the others, most of them, pay nothing for dropRest. */
const mayHaveBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/**
 * Wraps the app's request listener with the checks node does not make
 * (Host, transfer codings, the target `*`), and records each exchange for the clientError
 * handler. A request on a connection refused for the connection limit is not
 * served: its 503 is already on the wire; nor is one the limit does not
 * `admit` (it answers it).
 */
export function guardRequests(listener: RequestListener, connections: Connections, extra: ExtraHeaders, admit: AdmitRequest): RequestListener {
  return (req, res) => {
    // Refused, or closed by the mock (lingering-close.ts): a request after that is no request the client may expect answered.
    if (connections.refused(req.socket) || req.socket.writableEnded) {
      req.resume();
      return;
    }
    connections.track({ req, res });
    // A request that asks for an upgrade is answered as HTTP/1.1 (RFC 9110 §7.8: the mock switches to nothing), and its
    // connection closed (RFC 9112 §9.6): node, with no 'upgrade' listener, no longer reads what follows on it as before
    // (a request sent with it is dropped, one it cannot parse gets no answer at all), so the client's next request goes
    // on a new connection instead of waiting on this one.
    if (req.headers.upgrade !== undefined) res.setHeader('connection', 'close');
    if (mayHaveBody(req)) res.once('finish', () => dropRest(req));
    if (!admit(req, res)) return;
    lowerCaseScheme(req);
    const problem = hostProblem(req) ?? transferCodingProblem(req);
    if (problem) return sendErrorAnswer(res, problem, extra);
    if (req.url === '*') return answerAsteriskForm(req, res, extra);
    defaultHost(req);
    void listener(req, res);
  };
}


