import type { RequestListener } from 'node:http';
import { answerAsteriskForm } from './asterisk-form.js';
import type { AdmitRequest } from './connection-limit.js';
import type { Connections } from './connections.js';
import { sendErrorAnswer, type ExtraHeaders } from './error-answer.js';
import { defaultHost, hostProblem } from './host-check.js';
import { transferCodingProblem } from './transfer-coding-check.js';

/**
 * Wraps the app's request listener with the checks node does not make
 * (Host, transfer codings, the target `*`), and records each exchange for the clientError
 * handler. A request on a connection refused for the connection limit is not
 * served: its 503 is already on the wire; nor is one the limit does not
 * `admit` (it answers it).
 */
export function guardRequests(listener: RequestListener, connections: Connections, extra: ExtraHeaders, admit: AdmitRequest): RequestListener {
  return (req, res) => {
    if (connections.refused(req.socket)) {
      req.resume();
      return;
    }
    connections.track({ req, res });
    if (!admit(req, res)) return;
    const problem = hostProblem(req) ?? transferCodingProblem(req);
    if (problem) return sendErrorAnswer(res, problem, extra);
    if (req.url === '*') return answerAsteriskForm(req, res, extra);
    defaultHost(req);
    void listener(req, res);
  };
}

