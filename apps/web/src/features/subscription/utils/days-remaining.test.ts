import { describe, expect, it } from 'vitest';
import { daysRemaining } from './days-remaining';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const inSeconds = (ms: number) => Math.floor(ms / 1000);
const DAY = 24 * 60 * 60_000;

describe('daysRemaining', () => {
  it('counts whole days from endAt in epoch seconds', () => {
    expect(daysRemaining(inSeconds(NOW + 30 * DAY), NOW)).toBe(30);
    expect(daysRemaining(inSeconds(NOW + 30 * DAY - 60_000), NOW)).toBe(30);
    expect(daysRemaining(inSeconds(NOW + 2 * DAY + 60_000), NOW)).toBe(3);
  });

  it('counts the last hours as one day and an ended package as none', () => {
    expect(daysRemaining(inSeconds(NOW + 3_600_000), NOW)).toBe(1);
    expect(daysRemaining(inSeconds(NOW), NOW)).toBe(0);
    expect(daysRemaining(inSeconds(NOW - DAY), NOW)).toBe(0);
  });
});
