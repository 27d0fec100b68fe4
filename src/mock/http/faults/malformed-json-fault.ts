import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { sent } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';
import { plainHeaders } from './plain-headers.js';

/** `malformed-json`: the normal answer, status and headers kept, its JSON body cut off half way. */
export const malformedJsonFault: FaultBehaviour<FaultOptions['malformed-json']> = async (x, next) => {
  const response = await next(x);
  const text = await response.text();
  // A strict prefix of a JSON object or array is never valid JSON.
  const cut = text.length >= 2 ? text.slice(0, Math.ceil(text.length / 2)) : '{';
  return sent(x, response.status, cut, { ...plainHeaders(response), 'content-type': 'application/json' });
};
