import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { API_KEY } from './config.js';
import { MAX_BODY_BYTES } from './soak-config.js';
import type { Tally } from './soak-tally.js';
import { SMALL_SESSIONS } from './soak-traffic.js';

/** The sessions the aborted bodies name in turn: the shared default and the small-create ones. */
export const ABORT_SESSIONS = SMALL_SESSIONS;
/** For the report, beside the autocannon streams. */
export const ABORT_STREAM = {
  name: 'aborted-body',
  label: 'raw sockets, createPet keyed: the head announces 1 MiB, 64 KiB of body is sent, then the connection is destroyed',
  /** Aborting clients side by side. */
  connections: 2,
};

/** Body bytes sent before the socket is destroyed, of the 1 MiB announced. */
const SENT_BYTES = 64 * 1024;
/** Time for the mock to read what was sent before the connection goes. */
const READ_PAUSE_MS = 5;
const WRITE_TIMEOUT_MS = 5000;

/**
 * A client that gives up mid-body, over and over until `running()` is false:
 * a raw socket sends createPet's head announcing a body of 1 MiB, 64 KiB of
 * it, then destroys the connection. Each one is counted as `aborted`; a
 * connection that fails before is counted as an error by its code.
 */
export async function abortBodies(origin: string, sessions: readonly (string | undefined)[], tally: Tally, running: () => boolean): Promise<void> {
  const { hostname, port } = new URL(origin);
  const part = `{"name":"${'a'.repeat(SENT_BYTES)}`;
  for (let turn = 0; running(); turn++) {
    const session = sessions[turn % sessions.length];
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${API_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES - 64}\r\n` +
      (session === undefined ? '' : `X-Mock-Session: ${session}\r\n`) +
      '\r\n';
    const failure = await sendAndDrop(hostname, Number(port), head + part);
    if (failure === undefined) tally.count(ABORT_STREAM.name, 'aborted (no answer awaited)');
    else tally.error(ABORT_STREAM.name, failure);
  }
}

/** Connects, writes `data`, waits a moment, destroys the socket; the error code if the connection failed, else undefined. */
function sendAndDrop(host: string, port: number, data: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    // A mock that no longer reads must not stall the loop.
    socket.setTimeout(WRITE_TIMEOUT_MS, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.once('connect', () => {
      socket.write(data, () => {
        void delay(READ_PAUSE_MS).then(() => {
          socket.destroy();
          resolve(undefined);
        });
      });
    });
  });
}
