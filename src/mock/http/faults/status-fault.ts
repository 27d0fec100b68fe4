import { errorBody, type ErrorCode } from '../../core/errors.js';
import type { FaultOptions, FaultStatus } from '../../core/faults/fault-kinds.js';
import { sendError } from '../respond.js';
import type { FaultBehaviour } from './fault-behaviour.js';

const STATUS_FAULTS: Record<FaultStatus, { code: ErrorCode; message: string }> = {
  500: { code: 'internal_error', message: 'The service failed to answer this request.' },
  503: { code: 'service_unavailable', message: 'The service is temporarily unavailable.' },
  429: { code: 'too_many_requests', message: 'Too many requests.' },
};

/**
 * `{ status }`: 500, 503 or 429 with the Error body the mock builds, and
 * `Retry-After: <seconds>` when `retryAfterSeconds` is given (RFC 9110
 * §10.2.3; RFC 6585 §4 for 429). The message says the failure is simulated,
 * so nobody chases it as a real one.
 */
export const statusFault: FaultBehaviour<FaultOptions['status']> = async (x, _next, { status, retryAfterSeconds: retry }, context) => {
  const { code, message } = STATUS_FAULTS[status];
  const text = `${message}${retry === undefined ? '' : ` Retry after ${retry} second${retry === 1 ? '' : 's'}.`} (Simulated by the mock: scenario ${context.scenario}, stub ${context.stub}.)`;
  return sendError(x, errorBody(code, text), retry === undefined ? undefined : { 'retry-after': String(retry) });
};
