import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashToken, newToken, sameSecret } from './secrets.js';

describe('secrets', () => {
  it('sameSecret says what === says, for any two strings, of any lengths', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(sameSecret(a, b)).toBe(a === b);
        expect(sameSecret(a, a)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('abc', 'abcd')).toBe(false);
  });

  it('makes 256-bit URL-safe tokens, never the same twice, stored as their SHA-256', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[\w-]{43}$/);
    const [token] = tokens;
    expect(hashToken(token!)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token!)).not.toContain(token!);
  });
});
