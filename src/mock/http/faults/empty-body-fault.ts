import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { sent } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { plainHeaders } from './plain-headers.js';

/**
 * `empty-body`: the normal answer's status and headers, `Content-Type`
 * included, and no body (`Content-Length: 0`), as a CDN or proxy that drops
 * bodies sends it. The normal answer is made first, so `createPet` still
 * stores its animal.
 */
export const emptyBodyFault: FaultBehaviour<FaultOptions['empty-body']> = async (x, next) => {
  const response = await next(x);
  await response.body?.cancel();
  return sent(x, response.status, '', { ...plainHeaders(response), 'content-length': '0' });
};
