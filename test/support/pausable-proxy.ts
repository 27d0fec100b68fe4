import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server that can stop passing its answers on
 * while keeping every connection open: a server that hangs (overloaded,
 * SIGSTOPped, a network that drops packets) rather than one that is gone.
 */
export async function pausableProxy(targetPort: number): Promise<{ port: number; pause(): void; resume(): void; drop(): void; close(): Promise<void> }> {
  let paused = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    client.on('data', (data) => upstream.write(data));
    upstream.on('data', (data) => (paused ? held.push(() => client.write(data)) : client.write(data)));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    client.on('close', () => {
      sockets.delete(client);
      sockets.delete(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    pause: () => (paused = true),
    resume() {
      paused = false;
      for (const send of held.splice(0)) send();
    },
    /** Cuts every open connection (a network drop), and goes on accepting new ones. */
    drop() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
