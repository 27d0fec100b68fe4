import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The last request node parsed on a connection, and its answer. */
export interface ConnectionExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * Node is done with the answer: it emitted 'close' (and has closed the
 * connection if the answer said so). Read off `res.closed`, which node sets
 * as it emits 'close', rather than a listener added to every answer.
 */
export const isDone = (exchange: ConnectionExchange): boolean => exchange.res.closed;

/**
 * What the transport's handlers know of each connection: its last exchange
 * (a parse error after it must not answer out of turn), and whether it was
 * refused for the connection limit. Weak maps: an entry goes with its socket.
 */
export interface Connections {
  track(exchange: ConnectionExchange): void;
  last(socket: Duplex): ConnectionExchange | undefined;
  refuse(socket: Duplex): void;
  refused(socket: Duplex): boolean;
}

export function createConnections(): Connections {
  const exchanges = new WeakMap<Duplex, ConnectionExchange>();
  const refusedSockets = new WeakSet<Duplex>();
  return {
    track: (exchange) => void exchanges.set(exchange.req.socket, exchange),
    last: (socket) => exchanges.get(socket),
    refuse: (socket) => refusedSockets.add(socket),
    refused: (socket) => refusedSockets.has(socket),
  };
}
