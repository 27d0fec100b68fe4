import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The last request node parsed on a connection, and its answer. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The answer emitted 'close': node is done with it (and has closed the connection if the answer said so). */
  done?: boolean;
}

/**
 * What the transport's handlers know of each connection: its last exchange
 * (a parse error after it must not answer out of turn), and whether it was
 * refused for the connection limit. Weak maps: an entry goes with its socket.
 */
export interface Connections {
  track(exchange: Exchange): void;
  last(socket: Duplex): Exchange | undefined;
  refuse(socket: Duplex): void;
  refused(socket: Duplex): boolean;
}

export function createConnections(): Connections {
  const exchanges = new WeakMap<Duplex, Exchange>();
  const refusedSockets = new WeakSet<Duplex>();
  return {
    track: (exchange) => {
      exchanges.set(exchange.req.socket, exchange);
      exchange.res.once('close', () => (exchange.done = true));
    },
    last: (socket) => exchanges.get(socket),
    refuse: (socket) => refusedSockets.add(socket),
    refused: (socket) => refusedSockets.has(socket),
  };
}
