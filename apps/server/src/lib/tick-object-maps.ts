import { AsyncResource } from 'node:async_hooks';

/** One object of the shape `process.nextTick` queues, kept for the life of the process (see `keepTickObjectMaps`). */
let kept: object | undefined;

/**
 * Keeps alive one object of the shape `process.nextTick` gives each callback it queues (Node 20:
 * `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`), so that V8 keeps that shape's maps.
 *
 * Every answer queues several such objects (a socket's write, a request's end). Between bursts none is alive, and a
 * full garbage collection, which V8 runs when the process idles, then frees their maps; `nextTick`, optimized again
 * afterwards, writes each object's four properties through V8's runtime instead of inline, for the rest of the
 * process: 7 % of the CPU of a node agent's 304 in `perf` (bench/RESULTS.md). The symbols are the ones an
 * `AsyncResource` carries; when a Node version names or shapes them otherwise, nothing is kept and nothing breaks.
 * Returns the object kept, if any.
 */
export function keepTickObjectMaps(): object | undefined {
  if (kept) return kept;
  const resource = new AsyncResource('TickObjectMaps');
  const symbolNamed = (name: string) =>
    Object.getOwnPropertySymbols(resource).find((symbol) => symbol.description === name);
  const asyncId = symbolNamed('async_id_symbol');
  const triggerAsyncId = symbolNamed('trigger_async_id_symbol');
  if (!asyncId || !triggerAsyncId) return undefined;
  // The same properties in the same order and of the same kinds as nextTick's, so that V8 gives it the same maps.
  kept = {
    [asyncId]: resource.asyncId(),
    [triggerAsyncId]: resource.triggerAsyncId(),
    callback: keepTickObjectMaps,
    args: undefined,
  };
  return kept;
}
