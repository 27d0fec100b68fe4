/**
 * The connection bounds (docs/reference.md, "Connection bounds"). Each is chosen so that
 * a laptop survives a client that opens connections and never finishes
 * them, and such a client cannot keep others out: 256 connections with a
 * request in progress, 4,096 open, each holding at most 16 KiB of headers,
 * for at most 15 s before its headers are complete.
 */
export interface TransportLimits {
  /** Connections with a request in progress (`--max-connections`); a request on one more gets 503. */
  maxConnections: number;
  /** A connection that has sent nothing is closed after this long, without an answer. */
  silentTimeoutMs: number;
  /** From a request's first byte to the end of its headers; then 408. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body; then 408. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long, without an answer. */
  keepAliveTimeoutMs: number;
  /** How often node checks the two timeouts above: they fire up to this much late. */
  connectionsCheckingIntervalMs: number;
  /** The request line and headers together; more gets 431. */
  maxHeaderBytes: number;
  /** A connection whose answer the client has not read for this long is destroyed (stalled-answers.ts). */
  stalledAnswerMs: number;
  /** A connection the mock closes is read and dropped for at most this long after its answer (lingering-close.ts). */
  lingerMs: number;
  /** …and at most this long without a byte from the client. */
  lingerIdleMs: number;
  /** …and at most this many bytes. */
  lingerBytes: number;
}

// Each connection may hold up to two answers the client does not read, up
// to about 1 MiB each (a session's largest animal, or a page of them), for
// `stalledAnswerMs`: 256 keeps that under 0.5 GiB; browsers open 6 a host.
export const DEFAULT_MAX_CONNECTIONS = 256;

/**
 * Connections open at once, in any state: 16 for each that may have a
 * request in progress (4,096 by default). One that holds no request costs
 * about 21 KiB at most (16 KiB of unfinished headers), so the 3,840 beyond
 * the busy ones hold about 80 MiB at worst, while idle keep-alives from a
 * team's browsers (6 a host) and a flood of unfinished connections both fit
 * in it; past it, the longest-held resting connection makes room.
 */
export const OPEN_PER_BUSY_CONNECTION = 16;
export const openConnectionsBound = (maxConnections: number): number => OPEN_PER_BUSY_CONNECTION * maxConnections;

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  // As node's keep-alive timeout: a connection that has asked nothing yet holds what an idle one does.
  silentTimeoutMs: 5_000,
  // Node's default is 60 s: a slow-headers client (slowloris) held a connection four times as long.
  headersTimeoutMs: 15_000,
  // Node's default is 300 s; 60 s still carries the largest body (1 MiB) at 17 KB/s.
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  // Node's default is 30 s, which would let the timeouts above run up to twice as long.
  connectionsCheckingIntervalMs: 1_000,
  maxHeaderBytes: 16 * 1024,
  stalledAnswerMs: 30_000,
  // As nginx's lingering_time and lingering_timeout (30 s, 5 s). A client that sends its whole body before it
  // reads (HTTP/1.0 clients, a raw socket) needs the server to keep reading: 128 MiB is twice the largest body
  // a browser app is likely to send by mistake (a video), about a tenth of a second to drop on loopback.
  lingerMs: 30_000,
  lingerIdleMs: 5_000,
  lingerBytes: 128 * 1024 * 1024,
};
