import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../../core/errors.js';
import type { ConnectionStates } from './connection-states.js';
import type { Connections } from './connections.js';
import type { LingeringClose } from './lingering-close.js';
import { rawErrorAnswer, sendErrorAnswer, type ExtraHeaders } from './error-answer.js';
import { OPEN_PER_BUSY_CONNECTION, openConnectionsBound } from './transport-limits.js';

export interface ConnectionLimitOptions {
  /** Connections with a request in progress (`--max-connections`). */
  maxBusy: number;
  /** A connection that has sent nothing for this long is closed. */
  silentMs: number;
  extra: ExtraHeaders;
}

/** Admits a request node has parsed, or answers it 503 and says no. */
export type AdmitRequest = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Bounds what connections hold, not only how many there are (docs/reference.md,
 * "Connection bounds"):
 * - at most `maxBusy` connections have a request in progress (its head read,
 *   its answer not yet handed to the kernel): a request on one more gets 503
 *   `too_many_connections` and `Retry-After: 1`, and its connection is closed;
 * - a connection that has sent nothing is closed after `silentMs`, without an
 *   answer (it asked nothing);
 * - at most `openConnectionsBound(maxBusy)` are open at once. At that bound a
 *   new connection takes the place of a resting one: an idle keep-alive first
 *   (it holds no request, and RFC 9112 §9.6 lets a server close it), the
 *   one idle longest; failing that, the connection that has held its place
 *   longest without finishing a request head, which gets the 503 if it sent
 *   part of one. A client that opens connections and finishes no request can
 *   so never keep another client out.
 */
export function limitConnections(
  server: Server,
  options: ConnectionLimitOptions,
  connections: Connections,
  states: ConnectionStates,
  lingering: LingeringClose,
): AdmitRequest {
  const { maxBusy, silentMs, extra } = options;
  const maxOpen = openConnectionsBound(maxBusy);
  const retry = { ...extra, 'retry-after': '1' };
  const busyError = errorBody('too_many_connections', `the mock is already answering requests on ${maxBusy} connections (--max-connections); retry shortly`);
  const reclaimed = rawErrorAnswer(
    errorBody('too_many_connections', `the mock has ${maxOpen} connections open (${OPEN_PER_BUSY_CONNECTION} × --max-connections) and this one had not finished its request's head; retry shortly`),
    retry,
  );
  const refuse = (socket: Socket): void => {
    connections.refuse(socket);
    lingering.close(socket, reclaimed);
  };

  server.on('connection', (socket: Socket) => {
    if (states.open >= maxOpen && !reclaimOne(states, refuse)) {
      socket.destroy();
      return;
    }
    states.arrive(socket);
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) closeResting(states, socket);
    }, silentMs).unref();
    socket.once('close', () => {
      clearTimeout(silent);
      states.forget(socket);
    });
  });

  return (req, res) => {
    const socket = req.socket as Socket;
    if (!states.working(socket) && states.busy >= maxBusy) {
      states.forget(socket);
      sendErrorAnswer(res, busyError, retry);
      return false;
    }
    trackAnswer(states, socket, res);
    return true;
  };
}

/** Busy until its answers are done and the kernel has taken them. */
function trackAnswer(states: ConnectionStates, socket: Socket, res: ServerResponse): void {
  states.work(socket);
  res.once('close', () => {
    if (states.answered(socket) > 0 || socket.destroyed || socket.writableEnded) return;
    // The answer is in the socket's buffer past its high-water mark: the client has not read it, so it still holds memory.
    if (socket.writableNeedDrain) socket.once('drain', () => states.rest(socket));
    else states.rest(socket);
  });
}

/** Closes a resting connection the transport no longer keeps (node's own keep-alive timeout does the same: no answer). */
function closeResting(states: ConnectionStates, socket: Socket): void {
  states.forget(socket);
  socket.destroy();
}

/** Frees one place for a new connection; false when every open connection is busy. */
function reclaimOne(states: ConnectionStates, refuse: (socket: Socket) => void): boolean {
  const found = states.reclaimable();
  if (!found) return false;
  // One that sent part of a head gets the 503, and lingers (lingering-close.ts) so that a reset does not wipe it.
  if (found.held !== 'part of a head') closeResting(states, found.socket);
  else {
    states.forget(found.socket);
    refuse(found.socket);
  }
  return true;
}
