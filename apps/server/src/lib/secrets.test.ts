import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashToken, matchesHash, newToken, sameSecret } from './secrets.js';

describe('secrets', () => {
  it('sameSecret says what === says, for any two strings, of any lengths, surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(sameSecret(a, b)).toBe(a === b);
        expect(sameSecret(a, a)).toBe(true);
      }),
      { numRuns: 500 },
    );
    const token = newToken();
    for (let index = 0; index < token.length; index++) {
      const changed = `${token.slice(0, index)}${token[index] === 'a' ? 'b' : 'a'}${token.slice(index + 1)}`;
      expect(sameSecret(changed, token)).toBe(false);
    }
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

  it('matchesHash says whether a secret is the one whose hash is stored, for any strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (secret, other) => {
        expect(matchesHash(secret, hashToken(secret))).toBe(true);
        expect(matchesHash(other, hashToken(secret))).toBe(other === secret);
      }),
      { numRuns: 500 },
    );
    // A stored value that is no SHA-256 digest matches nothing.
    expect(matchesHash('', '')).toBe(false);
    expect(matchesHash('a', hashToken('a').slice(0, 62))).toBe(false);
    expect(matchesHash('a', 'z'.repeat(64))).toBe(false);
  });
});
