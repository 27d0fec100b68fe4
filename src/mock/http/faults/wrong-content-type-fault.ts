import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { sent } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { plainHeaders } from './plain-headers.js';

/**
 * `wrong-content-type`: the normal answer, its status, headers and body
 * kept, labelled `Content-Type: text/plain`. The normal answer is made
 * first, so `createPet` still stores its animal.
 */
export const wrongContentTypeFault: FaultBehaviour<FaultOptions['wrong-content-type']> = async (x, next) => {
  const response = await next(x);
  return sent(x, response.status, await response.text(), { ...plainHeaders(response), 'content-type': 'text/plain' });
};
