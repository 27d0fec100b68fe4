import type { Duplex } from 'node:stream';

/** How long a connection closed by the transport is still read (and what is read dropped) before it is destroyed. */
export const LINGER_MS = 1000;

/**
 * Sends the last bytes and closes our side (FIN), then destroys the socket
 * after LINGER_MS. Destroying at once, as node's default does, closes a
 * socket with unread input, which makes the kernel send a reset that can
 * wipe the answer from the client's buffer before the client reads it
 * (RFC 9112 §9.6 on closing in stages); lingering for ever would let a client
 * that never closes hold the connection.
 */
export function endSocket(socket: Duplex, text?: string): void {
  // Ended already (by node, or by an earlier call: node reports every later chunk of a broken stream again).
  if (socket.writableEnded || socket.destroyed) return;
  socket.end(text);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
