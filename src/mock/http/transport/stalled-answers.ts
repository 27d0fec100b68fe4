import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { isDone, type Connections } from './connections.js';

/**
 * A client that asks for large answers and never reads them would keep
 * them in the process: node holds what the socket cannot take (up to two
 * answers a connection, as it stops reading a connection whose answers are
 * queued), and no request timeout covers an answer being written. So a
 * connection whose answer has not moved for `ms` is destroyed. One with a
 * request in flight and nothing to write (a scenario's `hang`, a body
 * being read) is left to the other timeouts.
 *
 * With a 'timeout' listener node no longer destroys a timed-out socket
 * itself (http.Server 'timeout'), and it uses the same event for an idle
 * keep-alive connection (`keepAliveTimeout`): one with no request in
 * flight is destroyed here, as node would have.
 */
export function endStalledAnswers(server: Server, ms: number, connections: Connections): void {
  server.setTimeout(ms, (socket: Socket) => {
    const last = connections.last(socket);
    if (socket.writableLength > 0 || last === undefined || isDone(last)) socket.destroy();
  });
}
