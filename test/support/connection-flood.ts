import { connect, type Socket } from 'node:net';

/** What each connection of a flood does: the ways a client holds a connection without finishing a request. */
export type FloodKind = 'slowloris' | 'silent' | 'idle';

export interface FloodOptions {
  port: number;
  /** Connections kept open at once, the kinds in turn. */
  count: number;
  /** A request the server answers (for the idle keep-alive ones). */
  request: string;
  /** How often a slowloris connection sends one more header line. */
  dripMs?: number;
  /** How long after the server closes one it is opened again. */
  reopenMs?: number;
}

export interface Flood {
  /** Connections connected and not yet closed, now. */
  open(): number;
  /** The most open at once so far. */
  peak(): number;
  /** Connections the server closed (each is opened again while the flood runs). */
  closedByServer(): number;
  stop(): void;
}

/**
 * Keeps `count` connections open from this process (one address) that hold
 * no request in progress: slowloris ones send a request head a line at a
 * time and never end it, silent ones send nothing, idle ones ask once and
 * keep the connection alive. A connection the server closes is opened again,
 * as an attacker would, so the pressure lasts. Opened in batches, so the
 * listen backlog is not what refuses them.
 */
export async function startFlood(options: FloodOptions): Promise<Flood> {
  const { port, count, request, dripMs = 2000, reopenMs = 1000 } = options;
  const kinds: FloodKind[] = ['slowloris', 'silent', 'idle'];
  const sockets = new Set<Socket>();
  let open = 0;
  let peak = 0;
  let closedByServer = 0;
  let stopped = false;

  const openOne = (kind: FloodKind): Promise<void> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let connected = false;
      let drip: NodeJS.Timeout | undefined;
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      socket.once('connect', () => {
        connected = true;
        open += 1;
        peak = Math.max(peak, open);
        if (kind === 'idle') socket.write(request);
        if (kind === 'slowloris') {
          socket.write('GET /v1/pets HTTP/1.1\r\nHost: a\r\n');
          drip = setInterval(() => socket.write(`X-Drip: ${Date.now()}\r\n`), dripMs);
        }
        resolve();
      });
      socket.once('close', () => {
        clearInterval(drip);
        sockets.delete(socket);
        if (connected) open -= 1;
        else resolve();
        if (stopped) return;
        closedByServer += 1;
        setTimeout(() => void openOne(kind), reopenMs);
      });
    });

  for (let at = 0; at < count; at += 100) {
    const batch = Array.from({ length: Math.min(100, count - at) }, (_, i) => openOne(kinds[(at + i) % kinds.length] as FloodKind));
    await Promise.all(batch);
  }
  return {
    open: () => open,
    peak: () => peak,
    closedByServer: () => closedByServer,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
