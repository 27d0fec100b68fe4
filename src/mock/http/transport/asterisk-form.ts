import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../../core/errors.js';
import { sendErrorAnswer, type ExtraHeaders } from './error-answer.js';

/** Every method some route of the mock (the API or the admin API) answers. */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';

/**
 * The asterisk-form target `*` (RFC 9112 §3.2.4) is only for a server-wide
 * `OPTIONS` (RFC 9110 §9.3.7), a "ping" that names no resource: it gets 204
 * with the server's methods in `Allow`. Any other method with `*` gets 400.
 */
export function answerAsteriskForm(req: IncomingMessage, res: ServerResponse, extra: ExtraHeaders): void {
  if (req.method !== 'OPTIONS') {
    sendErrorAnswer(res, errorBody('bad_request', `the request target * is only for OPTIONS, not ${req.method} (RFC 9112 §3.2.4)`), extra);
    return;
  }
  res.writeHead(204, { allow: SERVER_METHODS, ...extra });
  res.end();
}
