import type { IncomingMessage } from 'node:http';
import { errorBody, type ErrorBody } from '../../core/errors.js';
import { countRawHeader } from '../raw-headers.js';

/**
 * RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without a
 * Host header and to any request with more than one. Node drops or joins
 * repeated headers in `req.headers`, so they are counted in `rawHeaders`
 * (raw-headers.ts). The server is created with
 * `requireHostHeader: false` so that this check, not node's bodiless 400,
 * answers, and an HTTP/1.0 request without Host (legal) is served.
 */
export function hostProblem(req: IncomingMessage): ErrorBody | undefined {
  const hosts = countRawHeader(req.rawHeaders, 'host');
  if (hosts > 1) return errorBody('bad_request', `the request has ${hosts} Host headers; send one (RFC 9112 §3.2)`);
  // Not of HTTP/1.0, nor of the HTTP/0.9 node's parser still reads (no version, or `HTTP/0.9`).
  if (hosts === 0 && (req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1))) {
    return errorBody('bad_request', 'an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)');
  }
  return undefined;
}

/**
 * An HTTP/1.0 (or 0.9) request without Host has no authority; RFC 9112 §3.3 lets the
 * server apply a default "consistent with the incoming connection's
 * context": the address and port it arrived on. @hono/node-server needs one
 * to build the request's URL.
 */
export function defaultHost(req: IncomingMessage): void {
  if (req.headers.host !== undefined) return;
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  req.headers.host = `${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
}
