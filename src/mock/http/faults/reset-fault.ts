import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { endConnection } from './end-connection.js';

/** `reset`: the TCP connection is reset, nothing is answered. */
export const resetFault: FaultBehaviour<FaultOptions['reset']> = async (x) =>
  // RST rather than FIN: the client sees ECONNRESET, as when a peer crashes or a proxy drops the connection.
  endConnection(x, 'A connection reset', (socket) => socket.resetAndDestroy());
