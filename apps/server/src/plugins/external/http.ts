import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import { SECURITY_HEADERS } from '../../lib/security-headers.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/** Third-party plugins every route relies on: security headers, compression, form bodies, cookies. */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', async (_request, reply) => {
      reply.headers(SECURITY_HEADERS);
    });
    await fastify.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
    await fastify.register(formbody, { bodyLimit: 64 * 1024 });
    // Bodies are forms (and JSON for API clients); no call takes plain text, so it is refused with 415.
    fastify.removeContentTypeParser('text/plain');
    // Only the checkout reads a cookie: it parses the header when it needs it, rather than every request.
    await fastify.register(cookie, { hook: false });
    fastify.addHook('onSend', async (request, reply) => {
      // The id that every log line of the request carries, so that a customer's report can be found in the log.
      reply.header('x-request-id', request.id);
      // Over HTTPS (the socket's, or a trusted proxy's X-Forwarded-Proto) only: over plain HTTP the header means
      // nothing, and a proxy that is not trusted must not make the browser pin the site.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // An answer that does not say how it may be cached is not stored anywhere: most answers carry personal data.
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
    // A POST without a body is an empty form: its fields are then reported as missing, one by one.
    fastify.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });
  },
  { name: 'http' },
);
