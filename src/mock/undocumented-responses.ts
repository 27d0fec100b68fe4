import type { ErrorCode } from './errors.js';

/**
 * The statuses the mock answers with that the contract document does not
 * list. Each is an Error body. The fidelity check in the tests allows exactly
 * these, and the README's table lists them.
 * `operation` is the documented operation concerned, or undefined for
 * requests that reach no documented operation (and for 500, 503 and 429,
 * which any operation can give).
 */
export const UNDOCUMENTED_RESPONSES: ReadonlyArray<{ status: number; code: ErrorCode; operation: string | undefined; when: string }> = [
  { status: 400, code: 'invalid_parameter', operation: 'listPets', when: '`limit` or `status` outside the documented values' },
  { status: 413, code: 'payload_too_large', operation: 'createPet', when: 'a request body over 1 MiB' },
  { status: 500, code: 'internal_error', operation: undefined, when: 'the mock itself fails (a bug; see its log), or a scenario fault `then: {status: 500}`' },
  { status: 503, code: 'service_unavailable', operation: undefined, when: 'a scenario fault `then: {status: 503}` (e.g. `flaky`), with `Retry-After` when the stub gives `retryAfterSeconds`' },
  { status: 429, code: 'too_many_requests', operation: undefined, when: 'a scenario fault `then: {status: 429}` (e.g. `rate-limited`), with `Retry-After` when the stub gives `retryAfterSeconds`' },
  { status: 401, code: 'unauthorized', operation: undefined, when: 'any path under /v1 without an accepted key' },
  { status: 404, code: 'route_not_found', operation: undefined, when: 'a path the document does not describe' },
  { status: 405, code: 'method_not_allowed', operation: undefined, when: 'a documented path with another method (with `Allow`)' },
  { status: 501, code: 'not_implemented', operation: undefined, when: '`/v1/store/orders`: the area exists but is not described' },
];
