/**
 * A value, or the promise of one when it must be waited for. For the few calls that are answered from memory almost
 * always (a node agent's pull): an async function makes and awaits promises even then, and on the node API's 304
 * those promises were about half of what the app added to the HTTP work a bare Node server does.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next` applied to the value: at once when it is here, else when its promise resolves. */
export function thenMaybe<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
