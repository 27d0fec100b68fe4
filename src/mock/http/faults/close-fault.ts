import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { endConnection } from './end-connection.js';

/**
 * `close`: the connection is closed before any answer, FIN rather than RST,
 * as a server closes a keep-alive connection it deems idle while a request
 * is on its way (RFC 9112 §9.3.1: a client that sees this may retry only an
 * idempotent request). `destroySoon` is the transport's close in stages:
 * a request whose body is still arriving is read and dropped first
 * (lingering-close.ts), so the kernel sends no reset in place of the FIN.
 */
export const closeFault: FaultBehaviour<FaultOptions['close']> = async (x) =>
  endConnection(x, 'A connection closed without an answer', (socket) => socket.destroySoon());
