import { connect, type Socket } from 'node:net';
import { API_KEY } from './config.js';
import type { Tally } from './soak-tally.js';
import { LARGE_SESSIONS } from './soak-traffic.js';

/** For the report, beside the autocannon streams. */
export const SLOW_READ_STREAM = {
  name: 'slow-reader',
  label: 'raw sockets, listPets (limit 100) keyed in the large-create sessions in turn: one chunk read every 200 ms, given up after 2 s',
  /** Slow clients side by side. */
  connections: 2,
};

/** Pause after each chunk read: the client that cannot keep up, so the proxy's writes to it back up. */
const CHUNK_PAUSE_MS = 200;
/**
 * How long one slow client reads before it gives up and destroys the
 * connection: at one chunk (up to 64 KiB) per CHUNK_PAUSE_MS, less than an
 * answer holding one animal of almost 1 MiB, so the proxy also sees clients
 * that stop reading half-way.
 */
const GIVE_UP_MS = 2000;
const PATH = '/v1/pets?limit=100';

/**
 * A client that reads the answer slowly, over and over until `running()` is
 * false: a raw socket sends listPets in the sessions the large creates
 * fill in turn (so the answer can be many MiB through the proxy), pauses after every chunk, and
 * gives up after GIVE_UP_MS. An answer read to its end is counted by its
 * status; one given up on as `slow read given up`; a connection that fails
 * as an error by its code.
 */
export async function slowReads(origin: string, tally: Tally, running: () => boolean): Promise<void> {
  const { hostname, port } = new URL(origin);
  for (let turn = 0; running(); turn++) {
    const session = LARGE_SESSIONS[turn % LARGE_SESSIONS.length];
    const request =
      `GET ${PATH} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${API_KEY}\r\nConnection: close\r\n` +
      (session === undefined ? '' : `X-Mock-Session: ${session}\r\n`) +
      '\r\n';
    const outcome = await readSlowly(connect({ host: hostname, port: Number(port) }), request);
    if (outcome.kind === 'answer') tally.answer(SLOW_READ_STREAM.name, outcome.status, outcome.body);
    else if (outcome.kind === 'given-up') tally.count(SLOW_READ_STREAM.name, 'slow read given up');
    else tally.error(SLOW_READ_STREAM.name, outcome.code);
  }
}

type Outcome = { kind: 'answer'; status: number; body: string } | { kind: 'given-up' } | { kind: 'error'; code: string };

/** Sends `request`, reads one chunk per CHUNK_PAUSE_MS until the end, an error or GIVE_UP_MS. */
function readSlowly(socket: Socket, request: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let head = '';
    let settled = false;
    const settle = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve(outcome);
    };
    const giveUp = setTimeout(() => settle({ kind: 'given-up' }), GIVE_UP_MS);
    socket.once('error', (error: NodeJS.ErrnoException) => settle({ kind: 'error', code: error.code ?? error.message }));
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      // The status line and, for a 5xx, the start of its Error body: all a count needs.
      if (head.length < 4096) head += chunk.toString('latin1', 0, Math.min(chunk.length, 4096));
      socket.pause();
      setTimeout(() => socket.resume(), CHUNK_PAUSE_MS).unref();
    });
    socket.once('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (!Number.isInteger(status)) settle({ kind: 'error', code: 'no status line' });
      else settle({ kind: 'answer', status, body: head.slice(head.indexOf('\r\n\r\n') + 4) });
    });
  });
}
