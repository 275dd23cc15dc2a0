import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  COMPRESS_IN_ONE_CALL_UP_TO_BYTES,
  chooseEncoding,
  compressNow,
  compressOnce,
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
  /** A route that answers `bytes` bytes through gzippedFromParts, counting the gzips from parts it asked for. */
  async function answer(bytes: number, acceptEncoding: string) {
    const app = Fastify();
    let asked = 0;
    app.get('/', (_request, reply) => {
      const body = Buffer.alloc(bytes, 'a');
      return reply.send(
        gzippedFromParts(reply, body, (whole) => {
          asked++;
          return gzipSync(whole);
        }),
      );
    });
    const response = await app.inject({ url: '/', headers: { 'accept-encoding': acceptEncoding } });
    await app.close();
    return { response, asked };
  }

  it('gzips from parts when the client takes gzip as gladly as brotli, and says the answer varies', async () => {
    const { response, asked } = await answer(10_000, 'gzip, deflate, br');
    expect(asked).toBe(1);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(response.rawPayload).length).toBe(10_000);
  });

  it('leaves to the usual compression a client that prefers brotli, and an answer too long for the event loop', async () => {
    for (const [bytes, acceptEncoding] of [
      [10_000, 'br, gzip;q=0.5'],
      [COMPRESS_IN_ONE_CALL_UP_TO_BYTES + 1, 'gzip'],
    ] as const) {
      const { response, asked } = await answer(bytes, acceptEncoding);
      expect(asked).toBe(0);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.rawPayload.length).toBe(bytes);
    }
  });
});
