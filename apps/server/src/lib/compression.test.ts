import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  COMPRESS_FROM_BYTES,
  COMPRESS_IN_ONE_CALL_UP_TO_BYTES,
  chooseEncoding,
  compressNow,
  compressOnce,
  GZIPPED_HEADERS,
  gzippedFromParts,
} from './compression.js';

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

describe('gzipping from parts', () => {
  /** `bytes` bytes through gzippedFromParts for a client that sends `acceptEncoding`, and the gzips it asked for. */
  function answer(bytes: number, acceptEncoding: string | undefined) {
    let asked = 0;
    const gzipped = gzippedFromParts(acceptEncoding, bytes, () => {
      asked++;
      return gzipSync(Buffer.alloc(bytes, 'a'));
    });
    return { gzipped, asked };
  }

  it('gzips from parts when the client takes gzip as gladly as brotli', () => {
    for (const acceptEncoding of ['gzip', 'gzip, deflate, br', 'br;q=0.5, gzip']) {
      const { gzipped, asked } = answer(10_000, acceptEncoding);
      expect(asked).toBe(1);
      expect(gunzipSync(gzipped!).length).toBe(10_000);
    }
    expect(GZIPPED_HEADERS).toEqual({ 'content-encoding': 'gzip', vary: 'accept-encoding' });
  });

  it('leaves to the usual compression a client that prefers brotli or takes no gzip, and an answer too short or too long', () => {
    for (const [bytes, acceptEncoding] of [
      [10_000, 'br, gzip;q=0.5'],
      [10_000, 'identity'],
      [10_000, undefined],
      [COMPRESS_FROM_BYTES - 1, 'gzip'],
      [COMPRESS_IN_ONE_CALL_UP_TO_BYTES + 1, 'gzip'],
    ] as const) {
      expect(answer(bytes, acceptEncoding)).toEqual({ gzipped: undefined, asked: 0 });
    }
  });
});
