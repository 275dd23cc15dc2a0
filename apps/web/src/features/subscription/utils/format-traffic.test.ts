import { describe, expect, it } from 'vitest';
import { formatTraffic } from './format-traffic';

describe('formatTraffic', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1,023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5 * 1024 ** 2, '5 MB'],
    [1.234 * 1024 ** 3, '1.23 GB'],
    [100 * 1024 ** 3, '100 GB'],
    [2.5 * 1024 ** 4, '2.5 TB'],
    [3 * 1024 ** 5, '3,072 TB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(formatTraffic(bytes)).toBe(text);
  });

  it('writes the number in the given locale', () => {
    expect(formatTraffic(1536, 'pt-BR')).toBe('1,5 KB');
  });

  it('shows nothing below zero', () => {
    expect(formatTraffic(-5)).toBe('0 B');
    expect(formatTraffic(Number.NaN)).toBe('0 B');
  });
});
