import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/** Third-party plugins every route relies on: security headers, compression, form bodies, cookies. */
export default fp(
  async (fastify) => {
    await fastify.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // Mantine writes its CSS variables in a style element; captchas and QR codes are data: images.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          scriptSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // HSTS only means something over HTTPS; the header is harmless over HTTP and browsers ignore it there.
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    });
    await fastify.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
    await fastify.register(formbody, { bodyLimit: 64 * 1024 });
    // Bodies are forms (and JSON for API clients); no call takes plain text, so it is refused with 415.
    fastify.removeContentTypeParser('text/plain');
    await fastify.register(cookie);
    // The id that every log line of the request carries, so that a customer's report can be found in the log.
    fastify.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    // A POST without a body is an empty form: its fields are then reported as missing, one by one.
    fastify.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });
  },
  { name: 'http' },
);
