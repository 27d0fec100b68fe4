import type { ErrorCode } from '../../src/mock/core/errors.js';

/**
 * The statuses the mock answers with that the contract document does not
 * list. Each is an Error body. The fidelity check in the tests allows exactly
 * these, and the table in docs/reference.md lists them.
 * `operation` is the documented operation concerned; `*` for any request,
 * operation or not; undefined for requests that reach no documented
 * operation only.
 */
export const UNDOCUMENTED_RESPONSES: ReadonlyArray<{ status: number; code: ErrorCode; operation: string | undefined; when: string }> = [
  { status: 400, code: 'invalid_parameter', operation: 'listPets', when: '`limit` or `status` outside the documented values' },
  { status: 413, code: 'payload_too_large', operation: 'createPet', when: 'a request body over 1 MiB' },
  { status: 507, code: 'catalogue_full', operation: 'createPet', when: 'the session has added all its catalogue may hold (`--max-pets`, `--max-catalogue-bytes`); `POST /__mock/reset` empties it' },
  { status: 503, code: 'server_busy', operation: 'createPet', when: 'request bodies being read at once already take the process-wide budget (64 MiB), with `Retry-After: 1`' },
  { status: 500, code: 'internal_error', operation: '*', when: 'the mock itself fails (a bug; see its log), a scenario fault `then: {status: 500}`, or `Prefer: code=500`' },
  { status: 502, code: 'upstream_unavailable', operation: '*', when: '`Prefer: code=502` (a simulated gateway failure); proxy mode: the target cannot be reached' },
  { status: 504, code: 'upstream_timeout', operation: '*', when: '`Prefer: code=504` (a simulated gateway timeout); proxy mode: the target sent no answer in time' },
  { status: 503, code: 'service_unavailable', operation: '*', when: 'a scenario fault `then: {status: 503}` (e.g. `flaky`), with `Retry-After` when the stub gives `retryAfterSeconds`; `Prefer: code=503`, with `Retry-After: 1`; a connection over `--max-connections`, with `Retry-After: 1`' },
  { status: 429, code: 'too_many_requests', operation: '*', when: 'a scenario fault `then: {status: 429}` (e.g. `rate-limited`), with `Retry-After` when the stub gives `retryAfterSeconds`; `Prefer: code=429`, with `Retry-After: 1`' },
  { status: 400, code: 'bad_request', operation: '*', when: 'a request node cannot read as HTTP (a bad request line, method or Host header)' },
  { status: 400, code: 'unsupported_content_encoding', operation: 'createPet', when: 'a `Content-Encoding` other than identity (the mock does not decompress)' },
  { status: 431, code: 'headers_too_large', operation: '*', when: 'request line and headers over 16 KiB' },
  { status: 400, code: 'invalid_preference', operation: '*', when: 'a `Prefer` header with a malformed or impossible `code`, `example`, `dynamic` or `scenario` (createPet documents 400)' },
  { status: 400, code: 'invalid_session', operation: '*', when: 'an `X-Mock-Session` header that is not a session id (createPet documents 400)' },
  { status: 403, code: 'session_forbidden', operation: '*', when: 'with `--session-per-key`, an `X-Mock-Session` naming a session another API key owns' },
  { status: 503, code: 'too_many_sessions', operation: '*', when: 'a request that would start a session while the session table is full of sessions used in the last minute (with `Retry-After`)' },
  { status: 503, code: 'store_unavailable', operation: '*', when: 'with `--store redis://…`, Redis cannot be reached or did not answer within its timeout, with `Retry-After: 1`' },
  { status: 404, code: 'unknown_session', operation: '*', when: 'with `--store redis://…`, the request\'s session was ended (`DELETE /__mock/sessions/ID`, an eviction, its idle time) while the request was served: nothing it would have changed is kept' },
  { status: 401, code: 'unauthorized', operation: undefined, when: 'any path under /v1 without an accepted key' },
  { status: 404, code: 'route_not_found', operation: undefined, when: 'a path the document does not describe' },
  { status: 405, code: 'method_not_allowed', operation: undefined, when: 'a documented path with another method (with `Allow`)' },
  { status: 501, code: 'not_implemented', operation: undefined, when: '`/v1/store/orders`: the area exists but is not described' },
];
