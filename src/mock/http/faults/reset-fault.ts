import { errorBody } from '../../core/errors.js';
import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { nodeBindings } from '../node-bindings.js';
import { noAnswer, sendError } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';

/** `reset`: the TCP connection is reset, nothing is answered. */
export const resetFault: FaultBehaviour<FaultOptions['reset']> = async (x) => {
  const socket = nodeBindings(x.c)?.incoming.socket;
  if (!socket) return sendError(x, errorBody('internal_error', 'A connection reset needs the mock to run on a node server.'));
  // RST rather than FIN: the client sees ECONNRESET, as when a peer crashes or a proxy drops the connection.
  socket.resetAndDestroy();
  return noAnswer();
};
