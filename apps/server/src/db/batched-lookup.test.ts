import { describe, expect, it } from 'vitest';
import { BatchedLookup } from './batched-lookup.js';

/** A lookup whose queries the test answers one at a time, recording each query's keys and args. */
function recorded(maxKeys = 100) {
  const queries: Array<{ keys: string[]; args: number[]; answer(values: Record<string, string>): void; fail(): void }> =
    [];
  const lookup = new BatchedLookup<string, number, string>(
    (keys, args) =>
      new Promise((resolve, reject) => {
        queries.push({
          keys,
          args,
          answer: (values) => resolve(new Map(Object.entries(values))),
          fail: () => reject(new Error('database away')),
        });
      }),
    maxKeys,
  );
  return { lookup, queries };
}

/** The end of the event loop's current turn, when a lookup that found none under way goes. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedLookup', () => {
  it('sends a lookup that finds none under way at the end of the turn, with those made in the same turn', async () => {
    const { lookup, queries } = recorded();
    const a = lookup.get('a', 1);
    const b = lookup.get('b', 2);
    expect(queries).toHaveLength(0);
    await turn();
    expect(queries.map((query) => query.keys)).toEqual([['a', 'b']]);
    queries[0]!.answer({ a: 'A', b: 'B' });
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
    // Alone in its turn, a lookup goes alone.
    const c = lookup.get('c', 3);
    await turn();
    expect(queries.map((query) => query.keys)).toEqual([['a', 'b'], ['c']]);
    queries[1]!.answer({ c: 'C' });
    expect(await c).toBe('C');
  });

  it('sends the lookups made while one is under way together, each key once, with every lookup’s arg', async () => {
    const { lookup, queries } = recorded();
    const first = lookup.get('a', 1);
    await turn();
    const waiting = [lookup.get('b', 2), lookup.get('c', 3), lookup.get('b', 4), lookup.get('a', 5)];
    await turn();
    expect(queries).toHaveLength(1);
    queries[0]!.answer({ a: 'A1' });
    expect(await first).toBe('A1');
    await Promise.resolve();
    expect(queries).toHaveLength(2);
    expect(queries[1]!.keys).toEqual(['b', 'c', 'a']);
    expect(queries[1]!.args).toEqual([2, 4, 3, 5]);
    // A key the query does not find is answered with nothing.
    queries[1]!.answer({ a: 'A2', b: 'B' });
    expect(await Promise.all(waiting)).toEqual(['B', undefined, 'B', 'A2']);
  });

  it('sends the waiting lookups’ query before it answers those of the query just answered', async () => {
    const { lookup, queries } = recorded();
    let answered = false;
    const first = lookup.get('a', 1).then((value) => {
      answered = true;
      return value;
    });
    await turn();
    const waiting = lookup.get('b', 2);
    queries[0]!.answer({ a: 'A' });
    for (let hop = 0; hop < 10; hop++) await Promise.resolve();
    // The database has the next query while the app answers the first one's lookups, at the end of the turn.
    expect(queries.map((query) => query.keys)).toEqual([['a'], ['b']]);
    expect(answered).toBe(false);
    await turn();
    expect(answered).toBe(true);
    expect(await first).toBe('A');
    queries[1]!.answer({ b: 'B' });
    // None waiting: answered at once.
    expect(await waiting).toBe('B');
  });

  it('sends at most maxKeys keys a query, the longest waiting first', async () => {
    const { lookup, queries } = recorded(2);
    const all = [lookup.get('a', 0), lookup.get('b', 0), lookup.get('c', 0), lookup.get('d', 0), lookup.get('e', 0)];
    await turn();
    queries[0]!.answer({ a: 'A', b: 'B' });
    await turn();
    queries[1]!.answer({ c: 'C', d: 'D' });
    await turn();
    queries[2]!.answer({ e: 'E' });
    expect(await Promise.all(all)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(queries.map((query) => query.keys)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('fails every lookup of a failed query, and goes on with those that waited for it', async () => {
    const { lookup, queries } = recorded();
    const first = lookup.get('a', 0);
    await turn();
    const failing = [lookup.get('b', 0), lookup.get('b', 0)];
    queries[0]!.answer({ a: 'A' });
    expect(await first).toBe('A');
    await Promise.resolve();
    const next = lookup.get('c', 0);
    queries[1]!.fail();
    for (const lookupOf of failing) await expect(lookupOf).rejects.toThrow('database away');
    expect(queries.map((query) => query.keys)).toEqual([['a'], ['b'], ['c']]);
    queries[2]!.answer({ c: 'C' });
    expect(await next).toBe('C');
    // Idle again: the next lookup goes at the end of its turn.
    const later = lookup.get('d', 0);
    await turn();
    expect(queries).toHaveLength(4);
    queries[3]!.answer({ d: 'D' });
    expect(await later).toBe('D');
  });
});
