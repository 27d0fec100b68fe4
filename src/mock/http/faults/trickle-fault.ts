import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { sent } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { plainHeaders } from './plain-headers.js';

/** `trickle`: the normal answer, its body sent `chunkBytes` at a time, `intervalMs` apart. */
export const trickleFault: FaultBehaviour<FaultOptions['trickle']> = async (x, next, { trickle: { chunkBytes, intervalMs } }) => {
  const response = await next(x);
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
};
