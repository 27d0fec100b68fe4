import { errorBody, type ErrorBody, type ErrorCode } from './errors.js';

/**
 * The one result shape of the mock: a value, or why there is none. The
 * error is the Error body a client gets, unless a caller says otherwise
 * (a file's problem, for instance, is a sentence for the log).
 */
export type Result<T, E = ErrorBody> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const failed = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
/** An Error body result. */
export const fail = (code: ErrorCode, message: string): { ok: false; error: ErrorBody } => failed(errorBody(code, message));
