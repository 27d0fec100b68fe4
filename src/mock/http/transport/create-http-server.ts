import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { limitConnections } from './connection-limit.js';
import { clientErrors } from './client-errors.js';
import { refuseConnect } from './connect-method.js';
import { createConnections } from './connections.js';
import { refuseExpectation } from './expectations.js';
import { guardRequests } from './guard-requests.js';
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
  const listener = getRequestListener(fetch, { errorHandler: requestError(extra, options.onInternalError) });
  const server = createServer({
    requireHostHeader: false,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    maxHeaderSize: limits.maxHeaderBytes,
  });
  const admit = limitConnections(server, { maxBusy: limits.maxConnections, silentMs: limits.silentTimeoutMs, extra }, connections);
  server.on('request', guardRequests(listener, connections, extra, admit));
  // A client may half-close once its request is sent (RFC 9112 §9.6 lets it; `nc`, HTTP/1.0 clients).
  // By default node then aborts a request still being answered and ends the socket, so an answer
  // that waits on anything (the Redis store, a latency fault) never reaches it. Half-open, node
  // sends that answer, marked the connection's last. Node's own flag, not in its typings.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', clientErrors(connections, extra, limits.maxHeaderBytes));
  server.on('checkExpectation', refuseExpectation(connections, extra));
  server.on('connect', refuseConnect(extra));
  endStalledAnswers(server, limits.stalledAnswerMs);
  return server;
}
