/**
 * The mock's error codes. The interface fixes the Error body's shape
 * (`code`, `message`, `status`) but not its codes, so these are the mock's
 * own, stable, and listed in docs/reference.md.
 */
export const ERROR_CODES = {
  bad_request: 400,
  headers_too_large: 431,
  request_timeout: 408,
  expectation_failed: 417,
  unsupported_content_encoding: 400,
  unauthorized: 401,
  origin_not_allowed: 403,
  host_not_allowed: 403,
  invalid_parameter: 400,
  invalid_body: 400,
  malformed_json: 400,
  missing_body: 400,
  unsupported_content_type: 400,
  pet_not_found: 404,
  unknown_scenario: 404,
  invalid_scenario: 400,
  activation_superseded: 409,
  unknown_stub: 404,
  too_many_stubs: 409,
  invalid_preference: 400,
  invalid_session: 400,
  unknown_session: 404,
  session_forbidden: 403,
  too_many_sessions: 503,
  too_many_streams: 503,
  route_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_requests: 429,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  too_many_connections: 503,
  server_busy: 503,
  store_unavailable: 503,
  catalogue_full: 507,
  upstream_unavailable: 502,
  upstream_timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { code, message, status: ERROR_CODES[code] };
}

/** A client's value as a message quotes it: a header can hold up to 16 KiB, a message need not. */
export const clip = (value: string, max = 80): string => (value.length > max ? `${value.slice(0, max)}…` : value);

/**
 * An Error body with a profile's status and code (src/shared/profile/):
 * another server's codes, which the mock's own list need not hold. The
 * profile's schema allows only statuses the contract allows at its point.
 */
export const profiledError = (answer: { status: number; code: string }, message: string): ErrorBody => ({ code: answer.code as ErrorCode, message, status: answer.status });
