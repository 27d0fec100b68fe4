import type { Exchange, Next } from '../exchange.js';

export interface FaultContext {
  scenario: string;
  /** The stub's label, for the Error message. */
  stub: string;
  /** Aborted when the server shuts down: hung connections are closed then. */
  shutdown: AbortSignal | undefined;
}

/**
 * What one kind of fault does to a request, after the stub's latency:
 * `options` is the stub's `then` as written; `next` gives the normal answer.
 */
export type FaultBehaviour<Options> = (x: Exchange, next: Next, options: Options, context: FaultContext) => Promise<Response>;
