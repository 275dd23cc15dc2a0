import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { HSTS, SECURITY_HEADERS } from '../../lib/security-headers.js';

/** Answers shorter than this go uncompressed: they gain less than the encoding costs. */
const COMPRESS_FROM_BYTES = 1024;

/** A POST without a body is an empty form: its fields are then reported as missing, one by one. */
const emptyBodyAsEmptyForm: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {};
  done();
};

/** Third-party plugins every route relies on: security headers, compression, form bodies. */
export default fp(
  async (fastify) => {
    await fastify.register(helmet, SECURITY_HEADERS);
    // Brotli at quality 4: its default (11) is meant for files compressed once, not for answers made per request.
    await fastify.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_FROM_BYTES,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
    // Set before the route runs, so that error answers carry them too.
    fastify.addHook('onRequest', async (request, reply) => {
      // The id that every log line of the request carries, so that a customer's report can be found in the log.
      reply.header('x-request-id', request.id);
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // An answer that does not say how it may be cached is stored nowhere: most answers carry personal data.
      reply.header('cache-control', 'no-store');
      // Any answer past the threshold is compressed as the client asks, so a cache must key on what it asked.
      reply.header('vary', 'accept-encoding');
    });
    await fastify.register(formbody, { bodyLimit: 64 * 1024 });
    // Bodies are forms (and JSON for API clients); no call takes plain text, so it is refused with 415.
    fastify.removeContentTypeParser('text/plain');
    // Only on the routes that take a body, ahead of their own hooks: the others have no use for it.
    fastify.addHook('onRoute', (route) => {
      if (!route.schema?.body) return;
      const own = route.preValidation ?? [];
      route.preValidation = [emptyBodyAsEmptyForm, ...(Array.isArray(own) ? own : [own])];
    });
  },
  { name: 'http' },
);
