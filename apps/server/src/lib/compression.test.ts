import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressNow, compressOnce } from './compression.js';

describe('choosing an encoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['br;q=nonsense', undefined],
  ])('%s → %s', (accept, expected) => {
    expect(chooseEncoding(accept)).toBe(expected);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'gzip'],
    ['*', 'gzip'],
    ['br, gzip;q=0.9', 'br'],
    ['br', 'br'],
    ['gzip;q=0, *', 'br'],
  ])('%s → %s where gzip is preferred on a tie', (accept, expected) => {
    expect(chooseEncoding(accept, 'gzip')).toBe(expected);
  });

  it('compresses text that decodes back to itself', () => {
    const text = JSON.stringify({ plans: Array.from({ length: 50 }, (_, i) => ({ name: `Plano ${i} 中文`, i })) });
    expect(brotliDecompressSync(compressOnce(text, 'br')).toString()).toBe(text);
    expect(gunzipSync(compressOnce(text, 'gzip')).toString()).toBe(text);
    expect(brotliDecompressSync(compressNow(text, 'br')).toString()).toBe(text);
    expect(gunzipSync(compressNow(Buffer.from(text), 'gzip')).toString()).toBe(text);
  });
});
