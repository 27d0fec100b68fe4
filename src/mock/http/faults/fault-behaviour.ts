import type { Exchange, Next } from '../exchange.js';

export interface FaultContext {
  /** What sent the fault, for the Error message: `scenario flaky, stub every-third-request`, `session stub getpet-500`. */
  by: string;
  /** Aborted when the server shuts down: hung connections are closed then. */
  shutdown: AbortSignal | undefined;
}

/**
 * What one kind of fault does to a request, after the stub's latency:
 * `options` is the stub's `then` as written; `next` gives the normal answer.
 */
export type FaultBehaviour<Options> = (x: Exchange, next: Next, options: Options, context: FaultContext) => Promise<Response>;
