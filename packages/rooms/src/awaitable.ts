/**
 * A value now, or a promise of it. The memory store answers synchronously and a networked store asynchronously;
 * a caller that goes through {@link andThen} runs one code path for both and allocates no promise for the first.
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * Whether `value` is a promise, so it must be waited for. A store answers with native promises (async functions);
 * `instanceof` keeps this check monomorphic and cheap on the synchronous path, where a `then` lookup on every
 * result shape (and on boxed numbers) was not.
 */
export function isPromiseLike<T>(value: Awaitable<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * Applies `next` to `value`: at once when it is a plain value (a synchronous throw propagates), or when the promise
 * settles (a rejection propagates as a rejection). The one way callers of a {@link RoomStore} chain its results.
 */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}
