import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { alreadySent } from '../already-sent.js';
import { traceSent } from '../exchange-trace.js';
import { nodeBindings } from '../node-bindings.js';
import { sent } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { plainHeaders } from './plain-headers.js';

/**
 * `truncated-body`: the normal answer's status and headers with its whole
 * `Content-Length`, then the first half of its body, and the connection
 * closed: the client was promised more than it gets, so its read of the
 * body fails part way. The normal answer is made first, so `createPet`
 * still stores its animal. An answer without content (to HEAD) has nothing
 * to cut and goes out whole.
 */
export const truncatedBodyFault: FaultBehaviour<FaultOptions['truncated-body']> = async (x, next, _options, context) => {
  const response = await next(x);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers = { ...plainHeaders(response), 'content-length': String(bytes.length) };
  if (bytes.length === 0 || x.c.req.method === 'HEAD') return sent(x, response.status, bytes, headers);
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const node = nodeBindings(x.c);
  // In-process (createMock's fetch) there is no connection: the body's stream fails after its half instead.
  if (!node) return sent(x, response.status, failingAfter(half, `${context.by}: the body was cut off`), headers);
  const answer = alreadySent(response.status);
  traceSent(x, { response: answer, headers, body: new TextDecoder().decode(half), status: undefined });
  node.outgoing.writeHead(response.status, headers);
  // Closed once the half has left (node holds a first write until the next tick): closing sooner would drop it too.
  node.outgoing.write(half, () => node.incoming.socket.destroy());
  return answer;
};

/** A body that gives `start`, then fails with `reason` when read further. */
const failingAfter = (start: Uint8Array, reason: string): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(start),
    pull: (controller) => controller.error(new Error(reason)),
  });
