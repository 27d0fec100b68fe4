import { clip } from '../errors.js';
import { fail, ok, type Result } from '../result.js';
import { MAX_DELAY_MS } from '../scenarios/latency.js';

/**
 * `Prefer: delay=MS`: this request's answer waits MS milliseconds, as a
 * stub's `latency` would, then comes as it would have. RFC 7240 registers
 * no such preference (its `wait` is how long the client will wait, the
 * opposite); WireMock's and Mockoon's users ask for a per-request delay,
 * and a client that sends one is told it was applied. Capped as a
 * scenario's delays are, at 10 minutes. Undefined when not asked.
 */
export function readDelay(preferences: ReadonlyMap<string, string | undefined>): Result<number | undefined> {
  if (!preferences.has('delay')) return ok(undefined);
  const value = preferences.get('delay') ?? '';
  const ms = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms <= MAX_DELAY_MS)) return fail('invalid_preference', `Prefer: delay=${clip(value)} is not allowed; use delay=MS, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
  return ok(ms);
}
