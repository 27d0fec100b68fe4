import { errorBody, type ErrorCode } from '../../core/errors.js';
import type { Exchange, Next } from '../exchange.js';
import { nodeBindings } from '../node-bindings.js';
import { noAnswer, sendError, sent } from '../respond.js';
import type { FaultStatus, FaultThen } from '../../core/scenarios/scenario.js';

export interface FaultContext {
  scenario: string;
  /** The stub's label, for the Error message. */
  stub: string;
  /** Aborted when the server shuts down: hung connections are closed then. */
  shutdown: AbortSignal | undefined;
}

const STATUS_FAULTS: Record<FaultStatus, { code: ErrorCode; message: string }> = {
  500: { code: 'internal_error', message: 'The service failed to answer this request.' },
  503: { code: 'service_unavailable', message: 'The service is temporarily unavailable.' },
  429: { code: 'too_many_requests', message: 'Too many requests.' },
};

/**
 * What a fault stub does after its latency. Every body a fault sends is
 * the Error body, with the HTTP status, built here.
 * - `{ status }`: 500, 503 or 429, with `Retry-After: <seconds>` when
 *   `retryAfterSeconds` is given (RFC 9110 §10.2.3; RFC 6585 §4 for 429);
 * - `reset`: the TCP connection is reset (RST), nothing is answered;
 * - `hang`: nothing is answered; the connection stays open until the client
 *   closes it or the server shuts down;
 * - `malformed-json`: the normal answer, status and headers kept, its JSON
 *   body cut off half way;
 * - `trickle`: the normal answer, its body sent `chunkBytes` at a time,
 *   `intervalMs` apart;
 * - `pass`, or nothing: the normal answer.
 */
export async function applyFault(x: Exchange, next: Next, then: FaultThen | undefined, context: FaultContext): Promise<Response> {
  if (then === undefined || then === 'pass') return next(x);
  if (then === 'reset') return reset(x);
  if (then === 'hang') return hang(x, context.shutdown);
  if (then === 'malformed-json') return truncated(x, await next(x));
  if ('trickle' in then) return trickled(x, await next(x), then.trickle);
  const { code, message } = STATUS_FAULTS[then.status];
  const retry = then.retryAfterSeconds;
  const text = `${message}${retry === undefined ? '' : ` Retry after ${retry} second${retry === 1 ? '' : 's'}.`} (Simulated by the mock: scenario ${context.scenario}, stub ${context.stub}.)`;
  return sendError(x, errorBody(code, text), retry === undefined ? undefined : { 'retry-after': String(retry) });
}

function reset(x: Exchange): Response {
  const socket = nodeBindings(x.c)?.incoming.socket;
  if (!socket) return sendError(x, errorBody('internal_error', 'A connection reset needs the mock to run on a node server.'));
  // RST rather than FIN: the client sees ECONNRESET, as when a peer crashes or a proxy drops the connection.
  socket.resetAndDestroy();
  return noAnswer();
}

/** Answers nothing until the connection closes: the client gives up, or the server shuts down. */
export async function hang(x: Exchange, shutdown: AbortSignal | undefined): Promise<Response> {
  const node = nodeBindings(x.c);
  await new Promise<void>((resolve) => {
    const close = (): void => {
      node?.incoming.socket.destroy();
      resolve();
    };
    if (shutdown?.aborted) return close();
    shutdown?.addEventListener('abort', close, { once: true });
    node?.outgoing.once('close', () => {
      shutdown?.removeEventListener('abort', close);
      resolve();
    });
  });
  return noAnswer();
}

async function truncated(x: Exchange, response: Response): Promise<Response> {
  const text = await response.text();
  // A strict prefix of a JSON object or array is never valid JSON.
  const cut = text.length >= 2 ? text.slice(0, Math.ceil(text.length / 2)) : '{';
  return sent(x, response.status, cut, { ...plainHeaders(response), 'content-type': 'application/json' });
}

async function trickled(x: Exchange, response: Response, { chunkBytes, intervalMs }: { chunkBytes: number; intervalMs: number }): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  let offset = 0;
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset > 0) await new Promise((resolve) => (timer = setTimeout(resolve, intervalMs)));
      controller.enqueue(bytes.subarray(offset, offset + chunkBytes));
      offset += chunkBytes;
      if (offset >= bytes.length) controller.close();
    },
    // The client went away: no more chunks.
    cancel: () => clearTimeout(timer),
  });
  // The length is known, as it would be for a slow network rather than a streaming server.
  const headers = { ...plainHeaders(response), 'content-length': String(bytes.length) };
  return sent(x, response.status, bytes.length === 0 ? null : body, headers);
}

function plainHeaders(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  delete headers['content-length'];
  return headers;
}
