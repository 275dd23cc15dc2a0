import { type MessageKey, messageOf, type RequestLanguage, requestLanguageOf } from '@mutenet/contract';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** From `Accept-Language`: en, pt-BR or zh-Hans. */
    language: RequestLanguage;
    /** The text of a message in this request's language. */
    t(key: MessageKey): string;
  }
}

export default fp(
  async (fastify) => {
    fastify.decorateRequest('language', 'pt-BR');
    fastify.decorateRequest('t', function (this: { language: RequestLanguage }, key: MessageKey) {
      return messageOf(key, this.language);
    });
    fastify.addHook('onRequest', async (request) => {
      request.language = requestLanguageOf(request.headers['accept-language']);
    });
  },
  { name: 'i18n' },
);
