import type { Socket } from 'node:net';

/**
 * Each open connection is either busy (a request in progress, or its
 * answer still waiting in the process for the client to read), idle (kept
 * alive after its answers) or waiting for a request head (nothing sent
 * yet, or part of a head). Each group is kept in the order its connections
 * joined it, oldest first (Maps and Sets keep insertion order), so the
 * connection limit can reclaim the one that has held its place longest
 * without a scan of them all.
 */
export interface ConnectionStates {
  readonly open: number;
  readonly busy: number;
  /** A new connection: resting, with nothing read. */
  arrive(socket: Socket): void;
  /** A request's head has been read on it: busy until its answers are done. */
  work(socket: Socket): void;
  /** One of its answers is done; the answers still in progress on it (pipelined requests queue theirs). */
  answered(socket: Socket): number;
  /** Nothing of its answers waits in the process any more: resting from now. */
  rest(socket: Socket): void;
  working(socket: Socket): boolean;
  /** No longer counted: closed, or being closed by the transport. */
  forget(socket: Socket): void;
  /**
   * The idle keep-alive (answered, nothing read since) that has rested
   * longest; else the connection that has waited longest for a request head,
   * whether it has sent nothing or part of one (a new connection is the
   * youngest, so a client's own connection about to send its request goes
   * last); undefined if every connection is busy.
   */
  reclaimable(): { socket: Socket; held: 'idle' | 'nothing' | 'part of a head' } | undefined;
}

export function createConnectionStates(): ConnectionStates {
  // Each busy connection, with its answers in progress.
  const busy = new Map<Socket, number>();
  // Each connection answered and kept alive, with the bytes it had read then: idle while it reads no more.
  const idle = new Map<Socket, number>();
  // Connections waiting for a request head: new ones, and kept-alive ones seen to have started one.
  const waiting = new Set<Socket>();
  return {
    get open() {
      return busy.size + idle.size + waiting.size;
    },
    get busy() {
      return busy.size;
    },
    arrive: (socket) => void waiting.add(socket),
    work(socket) {
      idle.delete(socket);
      waiting.delete(socket);
      busy.set(socket, (busy.get(socket) ?? 0) + 1);
    },
    answered(socket) {
      const left = Math.max(0, (busy.get(socket) ?? 0) - 1);
      if (busy.has(socket)) busy.set(socket, left);
      return left;
    },
    rest(socket) {
      if ((busy.get(socket) ?? 0) > 0 || !busy.delete(socket)) return;
      idle.set(socket, socket.bytesRead);
    },
    working: (socket) => busy.has(socket),
    forget(socket) {
      busy.delete(socket);
      idle.delete(socket);
      waiting.delete(socket);
    },
    reclaimable() {
      // Each kept-alive connection is looked at once per rest: one that has read more since is moved to the waiting ones.
      for (const [socket, bytesRead] of idle) {
        if (socket.bytesRead === bytesRead) return { socket, held: 'idle' };
        idle.delete(socket);
        waiting.add(socket);
      }
      const [oldest] = waiting;
      if (!oldest) return undefined;
      return { socket: oldest, held: oldest.bytesRead === 0 ? 'nothing' : 'part of a head' };
    },
  };
}
