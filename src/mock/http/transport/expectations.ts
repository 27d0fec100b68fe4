import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../../core/errors.js';
import type { Connections } from './connections.js';
import { sendErrorAnswer, type ExtraHeaders } from './error-answer.js';

/**
 * The server's 'checkExpectation' event: an `Expect` other than
 * `100-continue` (which node answers itself). RFC 9110 §10.1.1: a server
 * that cannot meet an expectation answers 417; node's own 417 has no body.
 */
export function refuseExpectation(connections: Connections, extra: ExtraHeaders) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    connections.track({ req, res });
    const body = errorBody('expectation_failed', 'the mock meets no expectation but 100-continue (RFC 9110 §10.1.1)');
    sendErrorAnswer(res, body, extra);
  };
}
