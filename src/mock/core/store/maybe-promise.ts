/**
 * A value now or later (MSW's name for it). The memory store answers at
 * once, so a request served from it stays synchronous end to end (no
 * promise, no extra tick); the Redis store answers later. Code between the
 * two takes either, and this file is the one place that tells them apart,
 * as Hono's compose.ts is for its handlers.
 */
export type MaybePromise<T> = T | Promise<T>;

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

/**
 * `use(value)` now when the value is here, else once it is. Not named
 * `then`: a module exporting `then` is a thenable, and `await import()` of
 * it would call it.
 */
export function andThen<T, U>(value: MaybePromise<T>, use: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(use) : use(value);
}

/** `value`, with a rejection handed to `recover`; a value already here is passed through untouched. */
export function andCatch<T>(value: MaybePromise<T>, recover: (error: unknown) => MaybePromise<T>): MaybePromise<T> {
  return isPromise(value) ? value.catch(recover) : value;
}

/** Runs `done` once `value` has settled, either way: at once for a value already here. */
export function andFinally<T>(value: MaybePromise<T>, done: () => void): MaybePromise<T> {
  if (isPromise(value)) return value.finally(done);
  done();
  return value;
}

/** `value` once `first` (started before it) is done: `value` at once when `first` was. */
export function afterDone<T>(first: MaybePromise<unknown>, value: T): MaybePromise<T> {
  return isPromise(first) ? first.then(() => value) : value;
}

/** The promise, when `value` is one; undefined when it was here at once. */
export const pending = <T>(value: MaybePromise<T>): Promise<T> | undefined => (isPromise(value) ? value : undefined);
