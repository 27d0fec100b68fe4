import { errorBody, type ErrorBody, type ErrorCode } from '../errors.js';

/**
 * The statuses a real outage gives, which the mock can simulate although
 * the contract document lists none of them: a failing service (500), a
 * failing or slow gateway in front of it (502, 504), one that is down or
 * overloaded (503), and a used-up quota (429, RFC 6585 §4). Each has the
 * interface's Error body, with one of the mock's own codes. A scenario
 * fault sends a subset (FAULT_STATUSES); `Prefer: code=` all of them.
 */
export const OUTAGE_STATUSES = {
  500: { code: 'internal_error', message: 'The service failed to answer this request.' },
  502: { code: 'upstream_unavailable', message: 'A gateway in front of the service got no valid answer from it.' },
  503: { code: 'service_unavailable', message: 'The service is temporarily unavailable.' },
  504: { code: 'upstream_timeout', message: 'A gateway in front of the service got no answer from it in time.' },
  429: { code: 'too_many_requests', message: 'Too many requests.' },
} as const satisfies Record<number, { code: ErrorCode; message: string }>;

export type OutageStatus = keyof typeof OUTAGE_STATUSES;

/** The outage statuses in the order messages list them. */
export const OUTAGE_STATUS_LIST = [500, 502, 503, 504, 429] as const satisfies readonly OutageStatus[];

export const isOutageStatus = (status: number): status is OutageStatus => Object.hasOwn(OUTAGE_STATUSES, status);

/**
 * The Error an outage status is sent with. The message says the failure is
 * simulated, and by what (`by`: a scenario's stub, a Prefer header), so
 * nobody chases it as a real one; with `retryAfterSeconds`, it says when
 * to retry, as the `Retry-After` header sent with it does.
 */
export function outageError(status: OutageStatus, by: string, retryAfterSeconds?: number): ErrorBody {
  const { code, message } = OUTAGE_STATUSES[status];
  const retry = retryAfterSeconds === undefined ? '' : ` Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
  return errorBody(code, `${message}${retry} (Simulated by the mock: ${by}.)`);
}
