/**
 * A value now or later. The memory store answers at once, so a request
 * served from it stays synchronous end to end (no promise, no extra tick);
 * the Redis store answers later. Code between the two takes either.
 */
export type Maybe<T> = T | Promise<T>;

/**
 * `use(value)` now when the value is here, else once it is. Not named
 * `then`: a module exporting `then` is a thenable, and `await import()` of
 * it would call it.
 */
export function andThen<T, U>(value: Maybe<T>, use: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(use) : use(value);
}
