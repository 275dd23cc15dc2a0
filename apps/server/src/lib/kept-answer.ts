import type { RequestLanguage } from '@mutenet/contract';
import type { FastifyReply } from 'fastify';
import { compressOnce, type Encoding, encodingFor } from './compression.js';

/** A body already written, and compressed in each encoding asked for so far. */
type Body = { json: string; bytes: number; encoded: Partial<Record<Encoding, Buffer>> };

/** Bodies already written, per kept object and language. */
const bodies = new WeakMap<object, Partial<Record<RequestLanguage, Body>>>();

/**
 * Sends the answer built from `kept`, an object a service keeps and hands out unchanged until its source changes (a
 * new object then): its body is written once per object and language by the route's own serializer, so the bytes are
 * the ones the route would have written, and are reused until the object is replaced. `answer` builds the whole
 * answer from `kept` and the language alone. A long body is compressed once per encoding too: browsers ask for
 * brotli or gzip on every call, and compressing the same bytes anew for each of them cost twice the rest of the call.
 */
export function sendKeptAnswer(
  reply: FastifyReply,
  kept: object,
  language: RequestLanguage,
  answer: () => { [key: string]: unknown },
): FastifyReply {
  let perLanguage = bodies.get(kept);
  if (!perLanguage) {
    perLanguage = {};
    bodies.set(kept, perLanguage);
  }
  let body = perLanguage[language];
  if (body === undefined) {
    const serialize = reply.getSerializationFunction('200');
    if (!serialize) throw new Error('sendKeptAnswer: the route has no serializer for 200');
    const json = serialize(answer());
    body = { json, bytes: Buffer.byteLength(json), encoded: {} };
    perLanguage[language] = body;
  }
  reply.type('application/json; charset=utf-8');
  const encoding = encodingFor(reply, body.bytes);
  if (!encoding) return reply.send(body.json);
  body.encoded[encoding] ??= compressOnce(body.json, encoding);
  return reply.header('content-encoding', encoding).send(body.encoded[encoding]);
}
