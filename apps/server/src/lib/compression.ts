import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** Answers this long or longer are compressed: shorter ones gain less than the encoding costs. */
export const COMPRESS_FROM_BYTES = 1024;
/** Answers up to this size are compressed in one call on the event loop (a feed: 0.15 ms); larger ones on the pool. */
export const COMPRESS_IN_ONE_CALL_UP_TO_BYTES = 256 * 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding an answer goes in, as the client's `Accept-Encoding` allows: the one with the higher weight, on a tie
 * the one preferred (brotli unless the caller has a cheaper gzip); none when neither is accepted (absent, or `q=0`).
 */
export function chooseEncoding(acceptEncoding: string | undefined, prefer: Encoding = 'br'): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((each) => each.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const any = weights.get('*') ?? 0;
  const br = weights.get('br') ?? any;
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? any;
  if (br <= 0 && gzip <= 0) return undefined;
  if (br === gzip) return prefer;
  return br > gzip ? 'br' : 'gzip';
}

/**
 * The encoding an answer of `bytes` goes in to this request's client, none when it is too short to gain from one or
 * the client takes neither; a long answer says it varies with `Accept-Encoding` either way.
 */
export function encodingFor(reply: FastifyReply, bytes: number): Encoding | undefined {
  if (bytes < COMPRESS_FROM_BYTES) return undefined;
  const vary = reply.getHeader('vary');
  if (typeof vary !== 'string' || !/accept-encoding/i.test(vary)) {
    reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  }
  return chooseEncoding(reply.request.headers['accept-encoding']);
}

/** What an answer gzipped from its parts says of itself. */
export const GZIPPED_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-encoding': 'gzip',
  vary: 'accept-encoding',
});

/**
 * An answer of `bytes` that has a cheaper gzip than a deflate of the whole (`GzipTemplate`), gzipped so (`gzipped`,
 * called only then) when the client (`Accept-Encoding`) takes gzip at least as gladly as brotli; undefined leaves it
 * to be compressed as any answer (plugins/external/http.ts). So is an answer too short to gain from it, and one too
 * long to compress on the event loop: its template would hold the loop for a tenth of a second when first made, and
 * each gzip a millisecond or more.
 */
export function gzippedFromParts(
  acceptEncoding: string | undefined,
  bytes: number,
  gzipped: () => Buffer | undefined,
): Buffer | undefined {
  if (bytes < COMPRESS_FROM_BYTES || bytes > COMPRESS_IN_ONE_CALL_UP_TO_BYTES) return undefined;
  if (chooseEncoding(acceptEncoding, 'gzip') !== 'gzip') return undefined;
  return gzipped();
}

/** The usual settings for an answer made for one request: brotli 4 (gzip at its default, 6). */
const BROTLI_FOR_ONE_REQUEST = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/** An answer made for one request, compressed at once on the event loop. */
export function compressNow(payload: string | Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(payload, BROTLI_FOR_ONE_REQUEST) : gzipSync(payload);
}

const brotliOnPool = promisify<string | Buffer, BrotliOptions, Buffer>(brotliCompress);
const gzipOnPool = promisify<string | Buffer, Buffer>(gzip);

/** A long answer made for one request, compressed on the thread pool at the same settings, off the event loop. */
export function compressInBackground(payload: string | Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotliOnPool(payload, BROTLI_FOR_ONE_REQUEST) : gzipOnPool(payload);
}

/** A text compressed at the best ratio: for answers compressed once and sent many times. */
export function compressOnce(text: string, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(text, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
        },
      })
    : gzipSync(text, { level: constants.Z_BEST_COMPRESSION });
}
