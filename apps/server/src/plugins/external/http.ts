import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESS_FROM_BYTES, compressNow, encodingFor } from '../../lib/compression.js';
import { SECURITY_HEADERS } from '../../lib/security-headers.js';

/**
 * The headers every answer starts with; a route that says how it may be cached replaces `cache-control`. An answer
 * that does not say is stored nowhere: most answers carry personal data.
 */
const DEFAULT_HEADERS = Object.freeze({ ...SECURITY_HEADERS, 'cache-control': 'no-store' });
/**
 * Over HTTPS (the socket's, or a trusted proxy's X-Forwarded-Proto) only: over plain HTTP the header means nothing,
 * and a proxy that is not trusted must not make the browser pin the site.
 */
const HTTPS_DEFAULT_HEADERS = Object.freeze({
  ...DEFAULT_HEADERS,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False: the route's answers go as they are (they shrink too little for what compressing costs). */
    compress?: false;
  }
}

/** Answers up to this size are compressed in one call on the event loop (a feed: 0.15 ms); larger ones by a stream. */
const COMPRESS_IN_ONE_CALL_UP_TO_BYTES = 256 * 1024;

/** Answers worth compressing: text of any kind. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|yaml|x-yaml)|image\/svg\+xml)/i;

/** A POST without a body is an empty form: its fields are then reported as missing, one by one. */
const emptyBodyAsEmptyForm: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {};
  done();
};

/** Third-party plugins every route relies on: security headers, compression, form bodies, cookies. */
export default fp(
  async (fastify) => {
    // Set before the route runs, so that error answers carry them too. A callback hook, not an async one: it runs
    // on every request, and a promise per request per hook is a measurable part of a small call's cost.
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.protocol === 'https' ? HTTPS_DEFAULT_HEADERS : DEFAULT_HEADERS);
      // The id that every log line of the request carries, so that a customer's report can be found in the log.
      reply.header('x-request-id', request.id);
      done();
    });
    // An answer made in memory (JSON, a feed) is compressed here, in one call: @fastify/compress pipes each through
    // a zlib stream on the thread pool, which took 0.45 ms of a feed's 0.57 ms. It still compresses streams (files).
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if (!(typeof payload === 'string' || Buffer.isBuffer(payload)) || reply.hasHeader('content-encoding')) {
        return done(null, payload);
      }
      const type = reply.getHeader('content-type');
      const bytes = Buffer.byteLength(payload);
      // Short answers, most of them, leave here: no encoding, no look at the route.
      if (bytes < COMPRESS_FROM_BYTES || typeof type !== 'string' || !COMPRESSIBLE.test(type)) {
        return done(null, payload);
      }
      // A large answer (a node's whole user list to an agent that takes brotli but not gzip) would hold the event
      // loop for a tenth of a second: the plugin's stream compresses it on the thread pool.
      if (bytes > COMPRESS_IN_ONE_CALL_UP_TO_BYTES) return done(null, payload);
      if (request.routeOptions.config.compress === false) return done(null, payload);
      const encoding = encodingFor(reply, bytes);
      if (!encoding) return done(null, payload);
      reply.header('content-encoding', encoding).removeHeader('content-length');
      done(null, compressNow(payload, encoding));
    });
    // A route that says `config.compress: false` is left alone by @fastify/compress too (it reads its own option).
    fastify.addHook('onRoute', (route) => {
      if (route.config?.compress === false) route.compress = false;
    });
    await fastify.register(compress, { encodings: ['br', 'gzip'], threshold: COMPRESS_FROM_BYTES });
    await fastify.register(formbody, { bodyLimit: 64 * 1024 });
    // Bodies are forms (and JSON for API clients); no call takes plain text, so it is refused with 415.
    fastify.removeContentTypeParser('text/plain');
    // Only the checkout reads a cookie: it parses the header when it needs it, rather than every request.
    await fastify.register(cookie, { hook: false });
    // Only on the routes that take a body, ahead of their own hooks: the others have no use for it.
    fastify.addHook('onRoute', (route) => {
      if (!route.schema?.body) return;
      const own = route.preValidation ?? [];
      route.preValidation = [emptyBodyAsEmptyForm, ...(Array.isArray(own) ? own : [own])];
    });
  },
  { name: 'http' },
);
