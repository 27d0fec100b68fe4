import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` listening and resolves with its address, or rejects with the listen error (EADDRINUSE…). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
