import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonbIntegerRows } from './jsonb.js';

describe('rows of integers as SQLite JSONB', () => {
  const sqlite = new SQLite(':memory:');
  afterAll(() => sqlite.close());
  // Flag 8: the blob is strictly conforming JSONB, not merely readable.
  const valid = sqlite.prepare<[Buffer], number>('select json_valid(?, 8)').pluck();
  const asText = sqlite.prepare<[Buffer], string>('select json(?)').pluck();
  const read = sqlite
    .prepare<[Buffer], { a: number; b: number }>('select value ->> 0 as a, value ->> 1 as b from jsonb_each(?)')
    .raw();

  const integer = fc.oneof(
    fc.integer({ min: -20, max: 20 }),
    fc.maxSafeInteger(),
    fc.maxSafeNat(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 50, 99_999_999_999, 100_000_000_000),
  );

  it('is the JSONB SQLite reads as the same rows, whatever their sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(integer, integer), { maxLength: 300 }), (rows) => {
        const blob = jsonbIntegerRows(rows, [(row) => row[0], (row) => row[1]]);
        expect(valid.get(blob)).toBe(1);
        expect(asText.get(blob)).toBe(JSON.stringify(rows));
        expect(read.all(blob)).toEqual(rows);
      }),
    );
  });

  it('holds arrays past each size its headers can say, and none', () => {
    for (const count of [0, 1, 2, 3, 12, 300, 7_000, 40_000]) {
      const rows = Array.from({ length: count }, (_, index) => [index, index * 1_000_003] as const);
      const blob = jsonbIntegerRows(rows, [(row) => row[0], (row) => row[1]]);
      expect(valid.get(blob), `${count} rows`).toBe(1);
      expect(asText.get(blob), `${count} rows`).toBe(JSON.stringify(rows));
    }
  });

  it('refuses a value that is not a safe integer', () => {
    for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => jsonbIntegerRows([value], [(row) => row]), String(value)).toThrow(RangeError);
    }
  });
});
