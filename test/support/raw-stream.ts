import { connect, type Socket } from 'node:net';

/** A journal stream opened over a raw socket, from a chosen local address, whose reader never reads past the headers. */
export interface RawStream {
  /** The answer's status line and headers, as sent. */
  head: string;
  status: number;
  /** Everything received so far (the body of a refusal included). */
  text(): string;
  socket: Socket;
}

/**
 * Opens `path` on the mock at `port` from `localAddress` (any 127.x.x.x:
 * Linux routes the whole 127.0.0.0/8 to loopback, so the mock sees each
 * as another client), as a client that holds the stream open and reads
 * nothing once the headers are in.
 */
export function openRawStream(port: number, localAddress: string, path = '/__mock/journal/stream', authorization?: string): Promise<RawStream> {
  const auth = authorization === undefined ? '' : `Authorization: ${authorization}\r\n`;
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      socket.on('data', (more: Buffer) => (received += more.toString('latin1')));
      // Reads nothing more from the kernel: what the server sends waits there.
      socket.pause();
      const head = received.slice(0, end);
      resolve({ head, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), text: () => received, socket });
    });
  });
}
