import type { Server } from 'node:http';
import { errorBody } from '../../src/mock/core/errors.js';
import { rawErrorAnswer } from '../../src/mock/http/transport/error-answer.js';

/**
 * What the mock's command does with a request node's parser refuses (a
 * method outside llhttp's list, `FROB`): a 400 with an Error body, then the
 * connection closes. A test server made of the mock's app alone would
 * answer node's bare 400 without one.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    socket.end(rawErrorAnswer(errorBody('bad_request', `the request cannot be read as HTTP/1.1 (${error.code ?? 'parse error'})`), {}));
  });
}
