import { describe, expect, it } from 'vitest';
import { freshUuid, requestIdOf } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('freshUuid', () => {
  it('makes version 4 UUIDs, none twice, across several draws from the system', () => {
    // 256 ids a draw: ten draws, so that ids from a new draw are checked against the ones before it.
    const ids = Array.from({ length: 2560 }, freshUuid);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves no digit fixed but the version and the variant', () => {
    const ids = Array.from({ length: 2000 }, freshUuid);
    for (let at = 0; at < 36; at++) {
      const seen = new Set(ids.map((id) => id[at]));
      if ([8, 13, 18, 23].includes(at)) expect([...seen]).toEqual(['-']);
      else if (at === 14) expect([...seen]).toEqual(['4']);
      else if (at === 19) expect([...seen].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(seen.size).toBe(16);
    }
  });
});

describe('requestIdOf', () => {
  it("takes the client's short plain id, and makes a fresh one for anything else", () => {
    expect(requestIdOf({ 'x-request-id': 'pull-1' })).toBe('pull-1');
    expect(requestIdOf({ 'x-request-id': '<script>' })).toMatch(UUID_V4);
    expect(requestIdOf({ 'x-request-id': 'a'.repeat(65) })).toMatch(UUID_V4);
    expect(requestIdOf({})).toMatch(UUID_V4);
  });
});
