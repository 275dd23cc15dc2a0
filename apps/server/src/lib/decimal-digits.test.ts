import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitCount, writeDigitsBefore } from './decimal-digits.js';

describe('integers written as digits', () => {
  it('counts and writes any non-negative safe integer’s digits as String writes them, ending where asked', () => {
    const integer = fc.oneof(
      fc.nat(120),
      fc.nat(2_000_000),
      fc.maxSafeNat(),
      fc.constantFrom(99_999, 999_999, 1_000_000, 0x7fffffff, 0x80000000, 10 ** 15, Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(integer, fc.nat(4), (n, after) => {
        const text = String(n);
        expect(digitCount(n)).toBe(text.length);
        const bytes = Buffer.alloc(text.length + 2 + after, '.');
        const end = 2 + text.length;
        expect(writeDigitsBefore(bytes, end, n)).toBe(2);
        expect(bytes.toString('latin1')).toBe(`..${text}${'.'.repeat(after)}`);
      }),
    );
  });
});
