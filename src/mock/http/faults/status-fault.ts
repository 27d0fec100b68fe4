import { outageError } from '../../core/faults/outage-statuses.js';
import type { FaultOptions } from '../../core/faults/fault-kinds.js';
import { sendError } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';

/**
 * `{ status }`: 500, 503 or 429 with the Error body the mock builds, and
 * `Retry-After: <seconds>` when `retryAfterSeconds` is given (RFC 9110
 * §10.2.3; RFC 6585 §4 for 429). The message says the failure is simulated,
 * so nobody chases it as a real one.
 */
export const statusFault: FaultBehaviour<FaultOptions['status']> = async (x, _next, { status, retryAfterSeconds: retry }, context) =>
  sendError(x, outageError(status, context.by, retry), retry === undefined ? undefined : { 'retry-after': String(retry) });
