import type { Maybe } from '../maybe.js';

/**
 * `use(value)` now when the value is here, else once it is: maybe.ts's
 * `then`, under another name. A module that exports `then` is itself a
 * thenable, so `await import()` of it (vitest loads every module so) calls
 * that function and fails; importing it from here would do the same.
 */
export function whenReady<T, U>(value: Maybe<T>, use: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(use) : use(value);
}
