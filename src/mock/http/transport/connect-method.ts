import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { clip, errorBody } from '../../core/errors.js';
import type { LingeringClose } from './lingering-close.js';
import { rawErrorAnswer, type ExtraHeaders } from './error-answer.js';

/**
 * The server's 'connect' event: node hands a CONNECT request (a tunnel
 * through a proxy, RFC 9110 §9.3.6) to it alone, and without a listener
 * closes the connection without a word. The mock is no proxy: it answers
 * 501, the status for a method the server does not support for any
 * resource (RFC 9110 §15.6.2), and closes.
 */
export function refuseConnect(lingering: LingeringClose, extra: ExtraHeaders) {
  return (req: IncomingMessage, socket: Duplex): void => {
    const body = errorBody('not_implemented', `the mock is not a proxy: CONNECT ${JSON.stringify(clip(req.url ?? ''))} is not implemented`);
    lingering.close(socket, rawErrorAnswer(body, extra));
  };
}
