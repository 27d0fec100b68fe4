import type { HeaderRecord } from './shared-headers.js';
import type { ProxyOutcome } from './proxy/proxy-outcome.js';

/** The answer as it went out, kept as it is (references, no copy): the journal shows it when the answer it records is this one. */
export interface SentAnswer {
  readonly response: Response;
  readonly headers: HeaderRecord;
  /** The body's text; null for bytes, a stream, or none. */
  readonly body: string | null;
  /**
   * The status, where `response` could not hold it: a target may answer
   * any three digits (RFC 9110 §15 reserves none past 599 for clients to
   * refuse), and the platform's Response takes 200 to 599 only.
   */
  readonly status: number | undefined;
}

/**
 * What happened to one request, as the journal, the log and proxy mode's
 * recording tell it. Any step reads it; it is written only through the
 * functions below, so what a step may record is named here.
 */
export interface ExchangeTrace {
  /** The stub that answered (`id`, `#index`, or `session stub …`), or null. */
  readonly stub: string | null;
  /** Why no stub answered, where one might have. */
  readonly unmatched: string | undefined;
  /** The request body's bytes, once a step or the operation read them (readBody); in proxy mode, the start of a streamed one. */
  readonly body: Uint8Array | undefined;
  readonly sent: SentAnswer | undefined;
  /** In proxy mode, for a request sent on to the target: how that ended, and what its answer broke. */
  readonly proxy: ProxyOutcome | undefined;
}

type Writable = { -readonly [K in keyof ExchangeTrace]: ExchangeTrace[K] };
interface Traced {
  readonly trace: ExchangeTrace;
}

export const newTrace = (): ExchangeTrace => ({ stub: null, unmatched: undefined, body: undefined, sent: undefined, proxy: undefined });

export function traceStub(x: Traced, label: string): void {
  (x.trace as Writable).stub = label;
}

export function traceUnmatched(x: Traced, why: string): void {
  (x.trace as Writable).unmatched = why;
}

export function traceBody(x: Traced, bytes: Uint8Array): void {
  (x.trace as Writable).body = bytes;
}

export function traceSent(x: Traced, sent: SentAnswer): void {
  (x.trace as Writable).sent = sent;
}

export function traceProxy(x: Traced, outcome: ProxyOutcome): void {
  (x.trace as Writable).proxy = outcome;
}

/** The status an answer went out with: its own, or the one proxy mode passed on that a Response cannot hold. */
export function sentStatusOf(x: Traced, answer: Response): number {
  const { sent } = x.trace;
  return sent?.response === answer && sent.status !== undefined ? sent.status : answer.status;
}
