import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../../core/errors.js';
import type { Connections } from './connections.js';
import { endSocket } from './end-socket.js';
import { rawErrorAnswer, type ExtraHeaders } from './error-answer.js';

/**
 * At most `max` connections are served at once. Node's own
 * `server.maxConnections` closes the ones over it without a word (the
 * client sees a reset); here they get a 503 Error body with `Retry-After: 1`
 * first, are read and discarded for at most a second (end-socket.ts), then closed.
 * They are never served, and do not count towards the limit; but at most
 * `max` of them linger at once, so a client opening connections as fast as
 * it can holds at most twice the limit: past that, one is closed at once,
 * without an answer.
 */
export function limitConnections(server: Server, max: number, connections: Connections, extra: ExtraHeaders): void {
  let open = 0;
  let lingering = 0;
  const answer = rawErrorAnswer(
    errorBody('too_many_connections', `the mock already has ${max} connections open (--max-connections); retry shortly`),
    { ...extra, 'retry-after': '1' },
  );
  server.on('connection', (socket: Socket) => {
    if (open < max) {
      open += 1;
      socket.once('close', () => (open -= 1));
      return;
    }
    connections.refuse(socket);
    if (lingering >= max) {
      socket.destroy();
      return;
    }
    lingering += 1;
    socket.once('close', () => (lingering -= 1));
    endSocket(socket, answer);
  });
}
