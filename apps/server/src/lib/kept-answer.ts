import type { RequestLanguage } from '@mutenet/contract';
import type { FastifyReply } from 'fastify';

/** Bodies already written, per kept object and language. */
const bodies = new WeakMap<object, Partial<Record<RequestLanguage, string>>>();

/**
 * Sends the answer built from `kept`, an object a service keeps and hands out unchanged until its source changes (a
 * new object then): its body is written once per object and language by the route's own serializer, so the bytes are
 * the ones the route would have written, and are reused until the object is replaced. `answer` builds the whole
 * answer from `kept` and the language alone.
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
    body = serialize(answer());
    perLanguage[language] = body;
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
