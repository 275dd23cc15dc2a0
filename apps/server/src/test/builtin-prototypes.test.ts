import { describe, expect, it } from 'vitest';
import { jsonPrintedBy } from './module-script.js';

/**
 * Whether each built-in prototype has fast properties (V8's `%HasFastProperties`, which only a process started with
 * `--allow-natives-syntax` may call) once every module of the server is loaded, and then once a subclass of `String`
 * is declared: a prototype in dictionary mode makes every method call on its values, in optimized code too, a lookup
 * by name. ioredis 6 declares such a subclass for RESP3 (`class VerbatimString extends String`): with it loaded,
 * each string method call went through that lookup, 9 % of a node agent's 304 in instructions (bench/RESULTS.md).
 */
async function prototypesAfterLoading(): Promise<{ loaded: Record<string, boolean>; afterSubclass: boolean }> {
  const probe = `
    const fast = () => ({
      String: %HasFastProperties(String.prototype),
      Object: %HasFastProperties(Object.prototype),
      Array: %HasFastProperties(Array.prototype),
      Function: %HasFastProperties(Function.prototype),
    });
    await import('./apps/server/src/app.ts');
    const loaded = fast();
    class Wrapped extends String {}
    console.log(JSON.stringify({ loaded, afterSubclass: fast().String }));`;
  return jsonPrintedBy(probe, ['--allow-natives-syntax', '--import', 'tsx']);
}

describe("the built-in prototypes, once the server's modules are loaded", () => {
  it('keep fast properties; the probe sees a subclass of String take them away', { timeout: 60_000 }, async () => {
    const { loaded, afterSubclass } = await prototypesAfterLoading();
    expect(loaded).toEqual({ String: true, Object: true, Array: true, Function: true });
    // The probe itself can tell: what ioredis 6 did, done here, puts String.prototype in dictionary mode.
    expect(afterSubclass).toBe(false);
  });
});
