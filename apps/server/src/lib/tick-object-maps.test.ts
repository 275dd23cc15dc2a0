import { describe, expect, it } from 'vitest';
import { jsonPrintedBy } from '../test/module-script.js';

type Probe = { sameMapBefore: boolean | null; sameMapAfter: boolean | null; optimizedAfter: boolean[] };

/**
 * In a process of its own, started with V8's natives (`%HaveSameMap`, `%GetOptimizationStatus`) and `gc()`: whether
 * the kept object has the map of the objects `process.nextTick` queues, and whether an optimized `nextTick` stays
 * optimized through full collections run while no queued object is alive, as when a server idles.
 */
function probe(keep: boolean): Promise<Probe> {
  const script = `
    import { createHook } from 'node:async_hooks';
    import { setTimeout as sleep } from 'node:timers/promises';
    const { keepTickObjectMaps } = await import('./apps/server/src/lib/tick-object-maps.ts');
    const kept = ${keep} ? keepTickObjectMaps() : undefined;
    const queued = () => {
      let object;
      const hook = createHook({ init(id, type, trigger, resource) { if (type === 'TickObject') object ??= resource; } });
      hook.enable();
      process.nextTick(() => {});
      hook.disable();
      return object;
    };
    const sameMap = () => (kept ? %HaveSameMap(kept, queued()) : null);
    const sameMapBefore = sameMap();
    %PrepareFunctionForOptimization(process.nextTick);
    for (let i = 0; i < 3; i++) process.nextTick(() => {});
    %OptimizeFunctionOnNextCall(process.nextTick);
    process.nextTick(() => {});
    // The bit of %GetOptimizationStatus that says the function runs optimized code (V8's kOptimized).
    const OPTIMIZED = 16;
    const optimizedAfter = [];
    for (let i = 0; i < 6; i++) {
      await sleep(20);
      globalThis.gc();
      optimizedAfter.push((%GetOptimizationStatus(process.nextTick) & OPTIMIZED) !== 0);
    }
    console.log(JSON.stringify({ sameMapBefore, sameMapAfter: sameMap(), optimizedAfter }));`;
  return jsonPrintedBy(script, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx']);
}

describe('keepTickObjectMaps', () => {
  it('keeps an object of the map nextTick queues, through full collections', { timeout: 60_000 }, async () => {
    const { sameMapBefore, sameMapAfter, optimizedAfter } = await probe(true);
    expect(sameMapBefore).toBe(true);
    expect(sameMapAfter).toBe(true);
    expect(optimizedAfter).toEqual([true, true, true, true, true, true]);
  });

  it('is what keeps nextTick optimized: without it, full collections take its optimized code away', {
    timeout: 60_000,
  }, async () => {
    const { optimizedAfter } = await probe(false);
    expect(optimizedAfter.at(-1)).toBe(false);
  });
});
