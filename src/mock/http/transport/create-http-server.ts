import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { keepAlreadySent } from '../already-sent.js';
import { limitConnections } from './connection-limit.js';
import { clientErrors } from './client-errors.js';
import { refuseConnect } from './connect-method.js';
import { createConnectionStates } from './connection-states.js';
import { createConnections } from './connections.js';
import { refuseExpectation } from './expectations.js';
import { guardRequests } from './guard-requests.js';
import { createLingeringClose } from './lingering-close.js';
import { endStalledAnswers } from './stalled-answers.js';
import { requestError } from './request-errors.js';
import { DEFAULT_TRANSPORT_LIMITS, type TransportLimits } from './transport-limits.js';

export interface HttpServerOptions {
  /** Every origin is allowed by CORS: transport answers then carry `Access-Control-Allow-Origin: *` (their Origin is not known). */
  anyOrigin: boolean;
  limits?: Partial<TransportLimits> | undefined;
  /** Told of an error the app let escape (a bug), answered 500. */
  onInternalError: (error: unknown) => void;
}

/**
 * The node HTTP server the app runs on, with every answer node or the
 * transport gives before the app (malformed requests, timeouts, the
 * connection limit) an Error body; see "Malformed requests" in docs/reference.md.
 */
export function createHttpServer(fetch: (request: Request, env: object) => Response | Promise<Response>, options: HttpServerOptions): Server {
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...options.limits };
  const extra: Record<string, string> = options.anyOrigin ? { 'access-control-allow-origin': '*' } : {};
  const connections = createConnections();
  const listener = getRequestListener(keepAlreadySent(fetch), { errorHandler: requestError(extra, options.onInternalError) });
  const server = createServer({
    requireHostHeader: false,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    maxHeaderSize: limits.maxHeaderBytes,
  });
  const states = createConnectionStates();
  // A lingering connection holds no request: the connection limit no longer counts it; at most --max-connections linger at once.
  const lingering = createLingeringClose({ ...limits, maxLingering: limits.maxConnections }, (socket) => states.forget(socket as Socket));
  // Node closes a connection after an answer that said `Connection: close` with socket.destroySoon() (node's
  // _http_server.js, on every version this supports, checks for the method and calls it), and so does the node
  // adapter once it gives up draining a body after an answer: closing in stages instead lets a client still
  // sending the body the mock refused (413) read the answer. Only a connection whose request is still arriving
  // lingers; one whose request was read whole (a client that said `Connection: close`, HTTP/1.0) is closed as
  // node closes it, and takes no place.
  server.on('connection', (socket: Socket) => {
    const nodeDestroySoon = socket.destroySoon;
    socket.destroySoon = () => (connections.last(socket)?.req.complete === true ? nodeDestroySoon.call(socket) : lingering.close(socket));
  });
  // Shutting down closes the connections that hold no request (server.ts): a lingering one is such a connection,
  // and would otherwise hold the shutdown for up to its 30 s.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    lingering.destroyAll();
  };
  const admit = limitConnections(server, { maxBusy: limits.maxConnections, silentMs: limits.silentTimeoutMs, extra }, connections, states, lingering);
  server.on('request', guardRequests(listener, connections, extra, admit));
  // A client may half-close once its request is sent (RFC 9112 §9.6 lets it; `nc`, HTTP/1.0 clients).
  // By default node then aborts a request still being answered and ends the socket, so an answer
  // that waits on anything (the Redis store, a latency fault) never reaches it. Half-open, node
  // sends that answer, marked the connection's last. Node's own flag, not in its typings.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', clientErrors(connections, lingering, extra, limits.maxHeaderBytes));
  server.on('checkExpectation', refuseExpectation(connections, extra));
  server.on('connect', refuseConnect(lingering, extra));
  endStalledAnswers(server, limits.stalledAnswerMs);
  return server;
}
