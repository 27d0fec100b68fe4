import type { Duplex } from 'node:stream';

/** How long, and how much, a connection the mock closes is still read (what is read is dropped) before it is destroyed. */
export interface LingerBounds {
  /** From the moment the mock closes its side. */
  lingerMs: number;
  /** With nothing read for this long, the client has stopped sending: it is destroyed sooner. */
  lingerIdleMs: number;
  /** Read and dropped at most; the client has had its answer long before. */
  lingerBytes: number;
  /** Lingering at once; past it a connection is closed as node would, at once after its last bytes. */
  maxLingering: number;
}

/** Closes connections in stages, as RFC 9112 §9.6 asks of a server that closes: see `createLingeringClose`. */
export interface LingeringClose {
  /**
   * Sends `text` (if any) as the connection's last bytes and closes the
   * mock's side (FIN), then reads and drops what the client still sends,
   * within the bounds. Calling it again on the same connection does nothing.
   */
  close(socket: Duplex): void;
  close(socket: Duplex, text: string): void;
  /** Destroys every lingering connection: the server is shutting down, and they hold no request. */
  destroyAll(): void;
}

/**
 * A server that answers before it has read the whole request (a body too
 * large, a refused connection) and then closes at once closes a socket
 * with unread input: the kernel answers that with a reset, which can wipe
 * the answer from the client's buffer before the client reads it, and
 * fails the client's write of its body (EPIPE), so the client reports a
 * network error instead of the answer. RFC 9112 §9.6: the server closes
 * in stages, its sending side first, and keeps reading until the client
 * has had time to read the answer. Lingering for ever would let a client
 * that never stops sending hold the connection, hence the bounds.
 *
 * `onLinger` is told of each connection that starts lingering: it no
 * longer holds a request (the connection limit stops counting it).
 *
 * What a lingering connection still sends is the rest of a body nobody
 * will read, or bytes after an answer that said `Connection: close`: never
 * a request (guard-requests.ts serves none).
 */
export function createLingeringClose(bounds: LingerBounds, onLinger: (socket: Duplex) => void = () => undefined): LingeringClose {
  const closing = new WeakSet<Duplex>();
  const lingering = new Set<Duplex>();
  const close = (socket: Duplex, text?: string): void => {
    // Ended already (by an earlier call: node reports every later chunk of a broken stream again), or gone.
    if (socket.destroyed || closing.has(socket)) return;
    closing.add(socket);
    if (!socket.writableEnded) socket.end(text);
    if (lingering.size >= bounds.maxLingering) {
      destroyOnceSent(socket);
      return;
    }
    lingering.add(socket);
    onLinger(socket);
    linger(socket, bounds);
    socket.once('close', () => lingering.delete(socket));
  };
  return {
    close,
    destroyAll: () => {
      for (const socket of lingering) socket.destroy();
    },
  };
}

/** How often a lingering connection's reading is looked at: the byte and quiet bounds are met within this much. */
export const LINGER_CHECK_MS = 100;

/**
 * Reads and drops what arrives until the client closes its side or a bound
 * is reached, then destroys the socket. On a connection node's HTTP parser
 * reads, the parser goes on reading (the rest of the body goes to a request
 * whose answer is done, and the node adapter drops it); what was read is
 * counted off `bytesRead`, which counts it either way, looked at every
 * LINGER_CHECK_MS. The time bound holds whatever happens: after the
 * client's close too, while the answer is still being sent.
 */
function linger(socket: Duplex & { bytesRead?: number }, bounds: LingerBounds): void {
  const total = setTimeout(() => socket.destroy(), bounds.lingerMs);
  total.unref();
  socket.once('close', () => clearTimeout(total));
  if (socket.readableEnded) {
    destroyOnceSent(socket);
    return;
  }
  const readAtStart = socket.bytesRead ?? 0;
  let seen = readAtStart;
  let quietSince = performance.now();
  const watch = setInterval(() => {
    const read = socket.bytesRead ?? 0;
    if (read - readAtStart > bounds.lingerBytes) return void socket.destroy();
    if (read !== seen) {
      seen = read;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= bounds.lingerIdleMs) socket.destroy();
  }, Math.min(LINGER_CHECK_MS, bounds.lingerIdleMs));
  watch.unref();
  socket.once('close', () => clearInterval(watch));
  // The client has closed its side: once the answer is out, both sides are done.
  socket.once('end', () => {
    clearInterval(watch);
    destroyOnceSent(socket);
  });
  socket.resume();
}

/** As node closes a socket after an answer that said `Connection: close`: once its last bytes are handed to the kernel. */
function destroyOnceSent(socket: Duplex): void {
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}
