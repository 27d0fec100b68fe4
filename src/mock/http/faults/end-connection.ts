import type { Socket } from 'node:net';
import { errorBody } from '../../core/errors.js';
import type { Exchange } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { noAnswer, sendError } from '../respond.js';

/**
 * A fault that ends the connection before any answer (`reset`, `close`):
 * `end` acts on the request's socket, and nothing is answered. In-process
 * (createMock, MSW, a browser) there is no connection to end, so the
 * request gets an Error saying `what` needs a node server.
 */
export function endConnection(x: Exchange, what: string, end: (socket: Socket) => void): Response {
  const socket = nodeBindings(x.c)?.incoming.socket;
  if (!socket) return sendError(x, errorBody('internal_error', `${what} needs the mock to run on a node server.`));
  end(socket);
  return noAnswer();
}
