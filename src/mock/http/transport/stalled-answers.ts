import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A client that asks for large answers and never reads them would keep
 * them in the process: node holds what the socket cannot take (up to two
 * answers a connection, as it stops reading a connection whose answers are
 * queued), and no request timeout covers an answer being written. So a
 * connection with bytes waiting in the process that the kernel has taken
 * none of for `ms` is destroyed. A connection with nothing waiting (a
 * scenario's `hang`, a body being read, an idle keep-alive) is left to the
 * other timeouts.
 *
 * A sweep over the open connections, not node's socket timeout: node turns
 * that off (`setTimeout(0)`) when a request follows its keep-alive timer, so
 * a client that asks again after each answer would never be timed.
 */
export function endStalledAnswers(server: Server, ms: number): void {
  const open = new Set<Socket>();
  // What each waiting connection had handed to the kernel, and since when.
  const waiting = new Map<Socket, { sent: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      waiting.delete(socket);
    });
  });
  const sweep = (): void => {
    const now = performance.now();
    for (const socket of open) {
      if (socket.writableLength === 0) {
        waiting.delete(socket);
        continue;
      }
      // bytesWritten counts what is still buffered too (node docs, socket.bytesWritten).
      const sent = socket.bytesWritten - socket.writableLength;
      const seen = waiting.get(socket);
      if (seen === undefined || seen.sent !== sent) waiting.set(socket, { sent, since: now });
      else if (now - seen.since >= ms) socket.destroy();
    }
  };
  const timer = setInterval(sweep, Math.min(1000, ms / 4));
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
