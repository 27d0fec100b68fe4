/**
 * The connection bounds (docs/reference.md, "Connection bounds"). Each is chosen so that
 * a laptop survives a client that opens connections and never finishes
 * them: 256 connections, each holding at most 16 KiB of headers, for at
 * most 15 s before its headers are complete.
 */
export interface TransportLimits {
  /** Connections served at once (`--max-connections`); one more gets 503. */
  maxConnections: number;
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
}

// Each connection may hold up to two answers the client does not read, up
// to about 1 MiB each (a session's largest animal, or a page of them), for
// `stalledAnswerMs`: 256 keeps that under 0.5 GiB; browsers open 6 a host.
export const DEFAULT_MAX_CONNECTIONS = 256;

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  // Node's default is 60 s: a slow-headers client (slowloris) held a connection four times as long.
  headersTimeoutMs: 15_000,
  // Node's default is 300 s; 60 s still carries the largest body (1 MiB) at 17 KB/s.
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  // Node's default is 30 s, which would let the timeouts above run up to twice as long.
  connectionsCheckingIntervalMs: 1_000,
  maxHeaderBytes: 16 * 1024,
  stalledAnswerMs: 30_000,
};
