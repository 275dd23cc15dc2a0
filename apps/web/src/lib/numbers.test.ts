import { REQUEST_LANGUAGES, type RequestLanguage } from '@mutenet/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FractionDigits, formatNumber } from './numbers';

/** The property both tests hold: the number written as Intl.NumberFormat writes it, with the same digits. */
function writesAsIntl(value: number, language: RequestLanguage, fraction: Required<FractionDigits>) {
  expect(formatNumber(value, language, fraction)).toBe(new Intl.NumberFormat(language, fraction).format(value));
}

const digits = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
  .map(([a, b]) => ({ minimumFractionDigits: Math.min(a, b), maximumFractionDigits: Math.max(a, b) }));
const language = fc.constantFrom(...REQUEST_LANGUAGES);

describe('formatNumber', () => {
  it('writes what Intl.NumberFormat writes, for any number and digits, in each language', () => {
    fc.assert(fc.property(fc.double({ noNaN: false }), language, digits, writesAsIntl), { numRuns: 10_000 });
  });

  it('writes what Intl writes for amounts as prices and traffic have them: cents, halves, nines that carry', () => {
    const amounts = fc.oneof(
      fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100),
      fc.integer({ min: 0, max: 100_000_000 }).map((n) => n / 1000 + 0.005),
      fc.integer({ min: 0, max: 99_999 }).map((n) => n + 0.995),
      fc.integer({ min: 0, max: 2 ** 40 }).map((bytes) => bytes / 1024 ** 3),
    );
    fc.assert(fc.property(amounts, language, digits, writesAsIntl), { numRuns: 10_000 });
  });

  it('groups and separates as each language does', () => {
    const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    expect(formatNumber(1234567.891, 'en', two)).toBe('1,234,567.89');
    expect(formatNumber(1234567.891, 'pt-BR', two)).toBe('1.234.567,89');
    expect(formatNumber(1234567.891, 'zh-Hans', two)).toBe('1,234,567.89');
    expect(formatNumber(999.995, 'en', { maximumFractionDigits: 2 })).toBe('1,000');
    expect(formatNumber(-0, 'en', { maximumFractionDigits: 0 })).toBe('-0');
  });
});
