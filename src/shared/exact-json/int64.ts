/**
 * int64 (OpenAPI's `format: int64`): −2^63 … 2^63−1. JavaScript numbers hold
 * integers exactly only within ±(2^53−1), so an integer past that is held
 * as a bigint: an exact integer is a safe number or a bigint, never both
 * for one value, so `===` compares two of them digit for digit.
 */
export type ExactInteger = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Whether `value` is an integer within int64. */
export function isInt64(value: unknown): value is ExactInteger {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** A bigint as the one exact form: a number when it is safe. */
export const exactInteger = (value: bigint): ExactInteger => (value >= -BigInt(Number.MAX_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value);

/**
 * What a JavaScript schema validator is shown for an exact integer: a safe
 * integer for any int64 (the nearest one, ±(2^53−1), so a sign still
 * counts), and a number past 2^53 for one outside int64. Validators (ajv's
 * `format: int64` here, prism's int64 range) then judge "within int64"
 * exactly as "safe integer".
 */
export function int64StandIn(value: bigint): number {
  const sign = value < 0n ? -1 : 1;
  return value >= INT64_MIN && value <= INT64_MAX ? sign * Number.MAX_SAFE_INTEGER : sign * 2 ** 53;
}

/** Whether `value` is an integer in its exact form (a safe number, or a bigint), as parseExactJson reads one. */
export const isExactInteger = (value: unknown): value is ExactInteger => typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));

/** Decimal digits, a minus sign first or not, naming an integer outside the int64 range (`9223372036854775808`). */
export function isPastInt64Text(text: string): boolean {
  if (!/^-?\d+$/.test(text)) return false;
  const value = BigInt(text);
  return value > INT64_MAX || value < INT64_MIN;
}
