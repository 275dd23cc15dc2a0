import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it("takes the client's short plain id, and makes a fresh one for anything else", () => {
    expect(requestIdOf({ 'x-request-id': 'pull-1' })).toBe('pull-1');
    expect(requestIdOf({ 'x-request-id': '<script>' })).toMatch(UUID_V4);
    expect(requestIdOf({ 'x-request-id': 'a'.repeat(65) })).toMatch(UUID_V4);
    expect(requestIdOf({})).toMatch(UUID_V4);
  });
});
